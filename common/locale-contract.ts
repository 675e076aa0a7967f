/**
 * The site's languages as the API answers them (`GET /api/locales`) and takes them
 * (`PUT /api/locales`). Which codes are valid and how a locale's values are looked up is in
 * locale-rules.ts. Errors use the one error shape of api-contract.ts.
 */

/** One language the site's content is written in. */
export interface SiteLocale {
  /** A BCP 47 language tag in canonical case (`de-AT`). */
  code: string;
  /** What people call it (`Deutsch (Österreich)`). */
  label: string;
  /**
   * The locales a value missing in this one is taken from, in order (listed locales only; left
   * out when none). The chain is the whole order: it is not followed further through their chains.
   */
  fallback?: string[];
}

/** `GET /api/locales`, and the body of `PUT /api/locales`. */
export interface LocalesDocument {
  /** The code of the locale rows are read and written in when a request names none. */
  default: string;
  /** Every locale of the site, in the order the editor lists them. */
  locales: SiteLocale[];
}
