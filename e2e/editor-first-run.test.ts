import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { StartersResponse } from '../common/starter-contract.js';
import { editorSuite } from './support/editor-harness.js';

/**
 * A new site in Chromium: the first screen names the starter types and offers the starter sets;
 * the choice is made once; then a type whose slug a starter holds is named with a link and a free
 * slug to take. The tests run in order on one server.
 */

const suite = editorSuite();

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

async function starters(): Promise<StartersResponse> {
  return (await (await fetch(`${suite.server.api}/starters`)).json()) as StartersResponse;
}

describe('the first run in Chromium', () => {
  it('offers the starter sets on a new site and applies the one chosen, once', async () => {
    const { page } = suite;
    await page.goto(suite.url('/'));
    await page.getByRole('heading', { level: 1, name: 'How should this site start?' }).waitFor();
    expect(await page.locator('.starter-intro').textContent()).toContain(
      '4 starter content types, all still empty: News, Categories, Articles and Menu items.',
    );
    const sets = page.getByRole('list', { name: 'Ways to start' }).getByRole('listitem');
    expect(await sets.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
      'Keep the starter types',
      'Start empty',
      'Start a blog',
      'Start a documentation site',
    ]);
    expect(await sets.nth(2).textContent()).toContain('Content types: Authors and Posts.');
    // The screen waits for the choice: the address stays at the home page.
    expect(new URL(page.url()).pathname).toBe('/');

    // Keyboard: the blog's button is reachable and pressed like any button.
    await button(page, 'Use the blog types').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/authors');
    await page.getByRole('link', { name: 'Posts' }).waitFor();
    expect(await page.getByRole('link', { name: 'News' }).count()).toBe(0);
    const state = await starters();
    expect(state).toMatchObject({ choice: 'blog', offer: false });
    expect(state.starters.map((starter) => starter.slug)).toEqual(['authors', 'posts']);

    // The choice is made: the home page opens the first type again.
    await page.goto(suite.url('/'));
    await page.waitForURL('**/authors');
  });

  it('names the type holding a slug, links to it, and takes the free slug with one click', async () => {
    const { page } = suite;
    await page.goto(suite.url('/settings/content-types/new'));
    await page.getByLabel('Title', { exact: true }).fill('Posts');
    // Said as the title is typed, and again by the server's refusal of a save.
    const message = page.locator('#type-slug-error');
    await message.waitFor();
    expect(await message.textContent()).toBe('Slug is taken by the content type Posts; my-posts is free.');
    await button(page, 'Save content type').click();
    await page.getByRole('alert').filter({ hasText: 'Fix the highlighted problem' }).waitFor();
    expect(await message.textContent()).toBe('Slug is taken by the content type Posts; my-posts is free.');
    expect(await message.getByRole('link', { name: 'Posts' }).getAttribute('href')).toBe(
      '/settings/content-types/edit/posts',
    );
    expect(await page.getByLabel('Slug', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await button(page, 'Use “my-posts”').click();
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe('my-posts');
    expect(await page.getByLabel('Table', { exact: true }).inputValue()).toBe('my_posts');
    expect(await message.count()).toBe(0);
    await button(page, 'Save content type').click();
    await page.waitForURL('**/settings/content-types/edit/my-posts');
    const types = (await (await fetch(`${suite.server.api}/cms-content`)).json()) as {
      content_types: { slug: string; title: string }[];
    };
    expect(types.content_types.map((type) => type.slug)).toEqual(['authors', 'posts', 'my-posts']);

    // The holder's link opens its schema.
    await page.goto(suite.url('/settings/content-types/new'));
    await page.getByLabel('Title', { exact: true }).fill('Authors');
    await button(page, 'Save content type').click();
    await message.getByRole('link', { name: 'Authors' }).click();
    await button(page, 'Discard changes').click();
    await page.waitForURL('**/settings/content-types/edit/authors');
  });
});
