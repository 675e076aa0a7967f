import { defineCollection } from 'astro:content';
import { quireRowsLoader, quireTypesLoader } from './quire-loader';

export const collections = {
  quireTypes: defineCollection({ loader: quireTypesLoader() }),
  quireRows: defineCollection({ loader: quireRowsLoader() }),
};
