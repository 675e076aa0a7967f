import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ContentTypeListResponse } from '../common/api-contract.js';
import { blocksColumn, blockType, TEXT_BLOCK } from '../server/test-support/block-columns.js';
import { editorSuite } from './support/editor-harness.js';
import { chooseOption } from './support/ui-controls.js';

const suite = editorSuite();

const field = (scope: Page | Locator, label: string) => scope.getByLabel(label, { exact: true });
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const rowIdFromUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 5_000 });

/** The block cards of the Sections field, in order: each one's accessible name. */
const blockNames = (page: Page) =>
  page
    .getByRole('group', { name: 'Sections' })
    .locator('.block-card')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')));

/** One block card by its position: `Hero, block 2 of 3`. */
const block = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true });

const LANDING = {
  title: 'Landing pages',
  slug: 'pages',
  table: 'pages',
  columns: [
    { name: 'title', label: 'Title', type: 'text', required: true },
    blocksColumn('sections', 'Sections', [
      blockType('hero', 'Hero', [
        { name: 'heading', label: 'Heading', type: 'text', required: true },
        { name: 'cta_label', label: 'Button label', type: 'text', required: false },
      ]),
      TEXT_BLOCK,
    ]),
  ],
};

describe('the blocks builder in Chromium', () => {
  it('adds, fills, reorders by keyboard, duplicates, removes with undo and saves blocks; server problems show inside the block', async () => {
    const { page } = suite;
    const created = await fetch(`${suite.server.api}/cms-content`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(LANDING),
    });
    expect(created.status, await created.text()).toBe(201);

    await page.goto(suite.url('/pages/new'));
    await field(page, 'Title').fill('Spring sale');

    // Add a hero and a text block from the menu of the column's block types.
    await button(page, 'Add block').click();
    await page.getByRole('button', { name: 'Hero', exact: true }).click();
    await field(block(page, 'Hero, block 1 of 1'), 'Heading').fill('Everything half price');
    await field(block(page, 'Hero, block 1 of 1'), 'Button label').fill('Shop now');
    await button(page, 'Add block').click();
    await page.getByRole('button', { name: 'Text', exact: true }).click();
    await field(block(page, 'Text, block 2 of 2'), 'Body').fill('Until **Sunday**.');

    // Reorder by keyboard: pick up the text block's handle, move it up, drop it.
    // Each step waits for what a screen reader hears, so the sensor has measured the blocks first.
    await button(page, 'Drag Text, block 2').focus();
    await page.keyboard.press('Space');
    await poll(() => button(page, 'Drag Text, block 2').getAttribute('aria-pressed')).toBe('true');
    // An arrow the sensor takes before it has measured the blocks moves nothing: pressed again
    // until it is heard (at the top, another ArrowUp keeps the block there).
    const over = page.getByText('Text is over position 1 of 2.', { exact: true });
    await expect
      .poll(
        async () => {
          await page.keyboard.press('ArrowUp');
          return over.count();
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBeGreaterThan(0);
    await page.keyboard.press('Space');
    await page.getByText('Text dropped at position 1 of 2.', { exact: true }).waitFor({ state: 'attached' });
    await poll(() => blockNames(page)).toEqual(['Text, block 1 of 2', 'Hero, block 2 of 2']);
    // And back and forth with Move down and Move up.
    await button(block(page, 'Text, block 1 of 2'), 'Move down').click();
    await poll(() => blockNames(page)).toEqual(['Hero, block 1 of 2', 'Text, block 2 of 2']);
    await page.getByRole('status').filter({ hasText: 'Text moved to position 2 of 2.' }).waitFor();
    await button(block(page, 'Text, block 2 of 2'), 'Move up').click();
    await poll(() => blockNames(page)).toEqual(['Text, block 1 of 2', 'Hero, block 2 of 2']);

    // Duplicate the hero: the copy follows it, with the same fields, and is edited on its own.
    await button(block(page, 'Hero, block 2 of 2'), 'Duplicate').click();
    await poll(() => blockNames(page)).toEqual(['Text, block 1 of 3', 'Hero, block 2 of 3', 'Hero, block 3 of 3']);
    expect(await field(block(page, 'Hero, block 3 of 3'), 'Heading').inputValue()).toBe('Everything half price');
    await field(block(page, 'Hero, block 3 of 3'), 'Heading').fill('Free delivery');

    // Collapse shows the block's first text instead of its form; expand brings the form back.
    const toggle = block(page, 'Hero, block 3 of 3').locator('.block-toggle');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.textContent()).toBe('HeroFree delivery');
    expect(await field(block(page, 'Hero, block 3 of 3'), 'Heading').count()).toBe(0);
    await toggle.click();
    await field(block(page, 'Hero, block 3 of 3'), 'Heading').waitFor();

    // Remove the text block, then Undo puts it back where it was with what it held.
    await button(block(page, 'Text, block 1 of 3'), 'Remove').click();
    await poll(() => blockNames(page)).toEqual(['Hero, block 1 of 2', 'Hero, block 2 of 2']);
    expect(await page.locator('.blocks-removed').textContent()).toBe('Text block removed.Undo');
    await page.getByRole('status').filter({ hasText: 'Text block removed.' }).waitFor({ state: 'attached' });
    expect(await button(page, 'Undo').evaluate((element: any) => element.ownerDocument.activeElement === element)).toBe(
      true,
    );
    await button(page, 'Undo').click();
    await poll(() => blockNames(page)).toEqual(['Text, block 1 of 3', 'Hero, block 2 of 3', 'Hero, block 3 of 3']);
    expect(await field(block(page, 'Text, block 1 of 3'), 'Body').inputValue()).toBe('Until **Sunday**.');

    await button(page, 'Save').click();
    await page.waitForURL(/\/pages\/rows\/[^/?]+$/);
    const id = rowIdFromUrl(page);
    const { row } = await suite.api.get('pages', id);
    const sections = row?.sections as Record<string, unknown>[];
    expect(sections).toMatchObject([
      { type: 'text', body: 'Until **Sunday**.' },
      { type: 'hero', heading: 'Everything half price', cta_label: 'Shop now' },
      { type: 'hero', heading: 'Free delivery', cta_label: 'Shop now' },
    ]);
    expect(new Set(sections.map((section) => section.id)).size).toBe(3);

    // A reload reads the same blocks back.
    await page.reload();
    await poll(() => blockNames(page)).toEqual(['Text, block 1 of 3', 'Hero, block 2 of 3', 'Hero, block 3 of 3']);
    expect(await field(block(page, 'Hero, block 3 of 3'), 'Heading').inputValue()).toBe('Free delivery');

    // A required field left empty: the server's problem at sections[2].heading shows under it.
    await field(block(page, 'Hero, block 3 of 3'), 'Heading').fill('');
    await button(page, 'Save').click();
    const error = block(page, 'Hero, block 3 of 3').locator('.field-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^Heading /);
    expect(await block(page, 'Hero, block 2 of 3').locator('.field-error').count()).toBe(0);
    const unchanged = await suite.api.get('pages', id);
    expect(unchanged.row?.sections).toMatchObject([{ type: 'text' }, { type: 'hero' }, { heading: 'Free delivery' }]);
  });

  it('shows blocks read-only where the row may not be changed: no adding, moving or removing', async () => {
    const { page } = suite;
    const row = await suite.api.create('pages', {
      title: 'Archived',
      sections: [{ type: 'hero', heading: 'Old news' }],
    });
    // The row page disables its fields' fieldset for a row this person may not change (the roles are
    // e2e/editor-read-only.test.ts); the test server signs in an admin, so the fieldset is disabled here.
    await page.goto(suite.url(`/pages/rows/${encodeURIComponent(row.id)}`));
    const card = block(page, 'Hero, block 1 of 1');
    await card.waitFor();
    await page.locator('fieldset.editor-fields').evaluate((fieldset: any) => {
      fieldset.disabled = true;
    });
    expect(await button(card, 'Remove').isDisabled()).toBe(true);
    expect(await button(card, 'Drag Hero, block 1').isDisabled()).toBe(true);
    expect(await field(card, 'Heading').isDisabled()).toBe(true);
    expect((await button(page, 'Add Hero').count()) + (await button(page, 'Add block').count())).toBe(1);
    expect(await button(page, 'Add block').isDisabled()).toBe(true);
  });

  it('defines block types and their fields in the type editor, and the row form offers them', async () => {
    const { page } = suite;
    await page.goto(suite.url('/settings/content-types/new'));
    await field(page, 'Title').fill('Home pages');
    await button(page, 'Add field').click();
    const sections = page.getByRole('group', { name: /^Field 3:/ }).first();
    await field(sections, 'Field label').fill('Sections');
    await chooseOption(field(sections, 'Field type'), 'Blocks');

    // The field starts with one block type holding one field; each is named like a type's fields.
    const hero = sections.getByRole('group', { name: /^Block type 1:/ });
    await field(hero, 'Block label').fill('Hero');
    expect(await field(hero, 'Block name').inputValue()).toBe('hero');
    await field(hero.getByRole('group', { name: /^Field 1:/ }), 'Field label').fill('Heading');
    await button(hero, 'Add field to Hero').click();
    const cta = hero.getByRole('group', { name: /^Field 2:/ });
    await field(cta, 'Field label').fill('Button label');
    // A block has no address of its own: its fields are offered no slug.
    await field(cta, 'Field type').click();
    expect(await page.getByRole('option', { name: 'Slug', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await button(sections, 'Add block type').click();
    const quote = sections.getByRole('group', { name: /^Block type 2:/ });
    await field(quote, 'Block label').fill('Quote');
    await field(quote.getByRole('group', { name: /^Field 1:/ }), 'Field label').fill('Words');
    await button(page, 'Save content type').click();
    await page.waitForURL('**/settings/content-types/edit/home-pages');

    const list = (await (await fetch(`${suite.server.api}/cms-content`)).json()) as ContentTypeListResponse;
    const saved = list.content_types.find((type) => type.slug === 'home-pages');
    expect(saved?.columns[2]).toMatchObject({
      name: 'sections',
      type: 'blocks',
      blocks: [
        {
          name: 'hero',
          label: 'Hero',
          columns: [
            { name: 'heading', label: 'Heading', type: 'text' },
            { name: 'button_label', label: 'Button label', type: 'text' },
          ],
        },
        { name: 'quote', label: 'Quote', columns: [{ name: 'words', label: 'Words', type: 'text' }] },
      ],
    });

    await page.goto(suite.url(`/${saved?.table}/new`));
    await field(page, 'Title').fill('Welcome');
    await button(page, 'Add block').click();
    await page.getByRole('button', { name: 'Quote', exact: true }).click();
    await field(block(page, 'Quote, block 1 of 1'), 'Words').fill('Make yourself at home.');
    await button(page, 'Save').click();
    await page.waitForURL(/\/rows\/[^/?]+$/);
    const { row } = await suite.api.get(saved?.table ?? '', rowIdFromUrl(page));
    expect(row?.sections).toMatchObject([{ type: 'quote', words: 'Make yourself at home.' }]);
  });

  it('nests blocks in blocks and shows a block field on its condition', async () => {
    const { page } = suite;
    const picture = blockType('picture', 'Picture', [{ name: 'alt', label: 'Alt text', type: 'text', required: true }]);
    const gallery = blockType('gallery', 'Gallery', [
      {
        name: 'layout',
        label: 'Layout',
        type: 'select',
        required: false,
        options: [
          { id: 'grid', text: 'Grid' },
          { id: 'carousel', text: 'Carousel' },
        ],
      },
      { name: 'speed', label: 'Speed', type: 'number', required: false, when: { field: 'layout', is: ['carousel'] } },
      blocksColumn('images', 'Images', [picture]),
    ]);
    const created = await fetch(`${suite.server.api}/cms-content`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Galleries',
        slug: 'galleries',
        table: 'galleries',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          blocksColumn('sections', 'Sections', [gallery]),
        ],
      }),
    });
    expect(created.status, await created.text()).toBe(201);

    await page.goto(suite.url('/galleries/new'));
    await field(page, 'Title').fill('Summer');
    // One block type: the button names it.
    await button(page, 'Add Gallery').click();
    const card = block(page, 'Gallery, block 1 of 1');
    expect(await field(card, 'Speed').count()).toBe(0);
    await chooseOption(field(card, 'Layout'), 'Carousel');
    await field(card, 'Speed').fill('3');
    await button(card, 'Add Picture').click();
    await button(card, 'Add Picture').click();
    await field(block(page, 'Picture, block 1 of 2'), 'Alt text').fill('Beach');
    await field(block(page, 'Picture, block 2 of 2'), 'Alt text').fill('Dunes');
    await button(block(page, 'Picture, block 2 of 2'), 'Move up').click();
    await button(page, 'Save').click();
    await page.waitForURL(/\/galleries\/rows\/[^/?]+$/);
    const { row } = await suite.api.get('galleries', rowIdFromUrl(page));
    expect(row?.sections).toMatchObject([
      {
        type: 'gallery',
        layout: 'carousel',
        speed: 3,
        images: [
          { type: 'picture', alt: 'Dunes' },
          { type: 'picture', alt: 'Beach' },
        ],
      },
    ]);
  });
});
