import 'i18next';
import type app from './locales/en/app.json';
import type common from './locales/en/common.json';
import type components from './locales/en/components.json';
import type componentsCompare from './locales/en/components-compare.json';
import type conflicts from './locales/en/conflicts.json';
import type fields from './locales/en/fields.json';
import type fieldsBlocks from './locales/en/fields-blocks.json';
import type fieldsRichtext from './locales/en/fields-richtext.json';
import type pagesAccounts from './locales/en/pages-accounts.json';
import type pagesApi from './locales/en/pages-api.json';
import type pagesAudit from './locales/en/pages-audit.json';
import type pagesHooks from './locales/en/pages-hooks.json';
import type pagesLanguages from './locales/en/pages-languages.json';
import type pagesList from './locales/en/pages-list.json';
import type pagesMedia from './locales/en/pages-media.json';
import type pagesRow from './locales/en/pages-row.json';
import type pagesSecurity from './locales/en/pages-security.json';
import type pagesSignIn from './locales/en/pages-sign-in.json';
import type pagesStarters from './locales/en/pages-starters.json';
import type pagesTrash from './locales/en/pages-trash.json';
import type pagesTypes from './locales/en/pages-types.json';
import type problems from './locales/en/problems.json';
import type schema from './locales/en/schema.json';
import type translations from './locales/en/translations.json';

// English is the source catalog: `t` accepts only keys it has, with the right namespace.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    returnNull: false;
  }
  interface ResourceNamespaceMap {
    app: typeof app;
    common: typeof common;
    components: typeof components;
    'components-compare': typeof componentsCompare;
    conflicts: typeof conflicts;
    fields: typeof fields;
    'fields-blocks': typeof fieldsBlocks;
    'fields-richtext': typeof fieldsRichtext;
    'pages-accounts': typeof pagesAccounts;
    'pages-api': typeof pagesApi;
    'pages-audit': typeof pagesAudit;
    'pages-hooks': typeof pagesHooks;
    'pages-languages': typeof pagesLanguages;
    'pages-list': typeof pagesList;
    'pages-media': typeof pagesMedia;
    'pages-row': typeof pagesRow;
    'pages-security': typeof pagesSecurity;
    'pages-sign-in': typeof pagesSignIn;
    'pages-starters': typeof pagesStarters;
    'pages-trash': typeof pagesTrash;
    'pages-types': typeof pagesTypes;
    problems: typeof problems;
    schema: typeof schema;
    translations: typeof translations;
  }
}
