import type { ContentType } from './content-type.js';
import type { ContentTypeRegistry } from './content-type-registry.js';
import type { RowService } from './row-service.js';

const CATEGORIES = ['Local news', 'Culture', 'Sport', 'Business', 'Science', 'Opinion'];

const HEADLINES = [
  'City council approves new cycle lanes on Harbour Road',
  'Library extends weekend opening hours from March',
  'Über-fast fibre arrives in the old town',
  'Café Müller celebrates fifty years on Market Square',
  'River festival returns with a record number of boats',
  'School choir wins the regional championship',
  'New footbridge connects the museum and the station',
  'Weather service warns of heavy rain this weekend',
  'Local startup raises funding for solar roof tiles',
  'Theatre season opens with a sold-out premiere',
  'Stadium renovation finishes ahead of schedule',
  'Community garden doubles its allotments',
  'Budget debate: what the new tax rates mean for households',
  'Night buses to run every fifteen minutes',
  'Science week invites families into the labs',
  'Housing cooperative breaks ground on sixty homes',
  'Jazz concert in the park draws thousands',
  'Water quality in the lake reaches a ten-year high',
  'Election turnout forecast to rise among first-time voters',
  'Market hall reopens after a two-year restoration',
  'Museum acquires a rare map of the harbour from 1740',
  'Energy cooperative lowers prices for members',
  'Transport authority tests electric ferries',
  'Naïve art exhibition opens at the town gallery',
  'Local bakery wins national award for rye bread',
  'Volunteers clean three kilometres of riverbank',
  'Chess club hosts international youth tournament',
  'Hospital opens new children’s wing',
  'Open-air cinema announces its summer programme',
  'Council publishes plans for a car-free centre',
  'High school robotics team heads to the finals',
  'Farmers’ market moves to Saturday mornings',
  'Historic lighthouse to be restored with lottery grant',
  'Marathon route changes after resident feedback',
  'Smørrebrød pop-up brings Danish lunch to the square',
  'Jalapeño festival spices up the harbour weekend',
];

const STATUSES = ['published', 'published', 'published', 'draft', 'archived'] as const;

/**
 * Adds a few dozen realistic sample rows to the starter types News and Categories while they are
 * empty; a site that has not got them (another starter set was chosen) gets none.
 */
export async function addDemoContent(registry: ContentTypeRegistry, rows: RowService): Promise<number> {
  let added = 0;
  const start = Date.UTC(2025, 0, 6, 8, 30, 0);
  const categories = registry.findByTable('categories');
  const news = registry.findByTable('news');
  const isEmpty = async (table: ContentType | undefined) =>
    table !== undefined &&
    (await rows.list(table, { selection: { equals: [] }, page: { limit: 1, offset: 0, order: 'id', desc: false } }))
      .total === 0;

  if (categories && (await isEmpty(categories))) {
    for (const title of CATEGORIES) {
      await rows.create(categories, { title });
      added++;
    }
  }
  if (news && (await isEmpty(news))) {
    for (const [index, title] of HEADLINES.entries()) {
      const publishedAt = new Date(start + index * 9.5 * 86_400_000);
      await rows.create(news, {
        title,
        status: STATUSES[index % STATUSES.length],
        published_at: publishedAt.toISOString().slice(0, 19).replace('T', ' '),
        ...(index % 4 === 0
          ? {
              meta: {
                title: `${title} | Quire Gazette`,
                description: `Read: ${title.toLowerCase()}.`,
                keywords: 'local, news',
              },
            }
          : {}),
      });
      added++;
    }
  }
  return added;
}
