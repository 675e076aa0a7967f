import { defineCollection } from 'astro:content';
import { quireLoader } from './quire-loader';

export const collections = {
  news: defineCollection({ loader: quireLoader('news') }),
  articles: defineCollection({ loader: quireLoader('articles') }),
};
