/**
 * Apple Podcasts categories (https://podcasters.apple.com/support/1691-apple-podcasts-categories), the only
 * values `itunes:category` may take: a feed with any other is filed under no category, or refused. The sample
 * test compares this list with podcast-partytime's copy, so a change on either side is noticed.
 */
import { closestWord } from './did-you-mean.ts';

export const ITUNES_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  Arts: ['Books', 'Design', 'Fashion & Beauty', 'Food', 'Performing Arts', 'Visual Arts'],
  Business: ['Careers', 'Entrepreneurship', 'Investing', 'Management', 'Marketing', 'Non-Profit'],
  Comedy: ['Comedy Interviews', 'Improv', 'Stand-Up'],
  Education: ['Courses', 'How To', 'Language Learning', 'Self-Improvement'],
  Fiction: ['Comedy Fiction', 'Drama', 'Science Fiction'],
  Government: [],
  'Health & Fitness': ['Alternative Health', 'Fitness', 'Medicine', 'Mental Health', 'Nutrition', 'Sexuality'],
  History: [],
  'Kids & Family': ['Education for Kids', 'Parenting', 'Pets & Animals', 'Stories for Kids'],
  Leisure: ['Animation & Manga', 'Automotive', 'Aviation', 'Crafts', 'Games', 'Hobbies', 'Home & Garden', 'Video Games'],
  Music: ['Music Commentary', 'Music History', 'Music Interviews'],
  News: ['Business News', 'Daily News', 'Entertainment News', 'News Commentary', 'Politics', 'Sports News', 'Tech News'],
  'Religion & Spirituality': ['Buddhism', 'Christianity', 'Hinduism', 'Islam', 'Judaism', 'Religion', 'Spirituality'],
  Science: ['Astronomy', 'Chemistry', 'Earth Sciences', 'Life Sciences', 'Mathematics', 'Natural Sciences', 'Nature', 'Physics', 'Social Sciences'],
  'Society & Culture': ['Documentary', 'Personal Journals', 'Philosophy', 'Places & Travel', 'Relationships'],
  Sports: [
    'Baseball', 'Basketball', 'Cricket', 'Fantasy Sports', 'Football', 'Golf', 'Hockey', 'Rugby', 'Running', 'Soccer',
    'Swimming', 'Tennis', 'Volleyball', 'Wilderness', 'Wrestling',
  ],
  Technology: [],
  'True Crime': [],
  'TV & Film': ['After Shows', 'Film History', 'Film Interviews', 'Film Reviews', 'TV Reviews'],
};

/** Problems with the show's categories, as "field value problem" text (the caller adds the file). */
export function checkCategories(categories: ReadonlyArray<{ category: string; subcategories: readonly string[] }>): string[] {
  const problems: string[] = [];
  const top = Object.keys(ITUNES_CATEGORIES);
  categories.forEach((c, i) => {
    const subs = ITUNES_CATEGORIES[c.category];
    if (!subs) {
      const guess = closestWord(c.category, top);
      problems.push(
        `categories.${i}.category "${c.category}" is not an Apple Podcasts category` +
          (guess ? ` (did you mean "${guess}"?)` : ` (one of: ${top.join(', ')})`),
      );
      return;
    }
    c.subcategories.forEach((s, j) => {
      if (subs.includes(s)) return;
      const field = `categories.${i}.subcategories.${j}`;
      if (!subs.length) {
        problems.push(`${field} "${s}": "${c.category}" has no subcategories`);
        return;
      }
      const guess = closestWord(s, [...subs]);
      problems.push(
        `${field} "${s}" is not a subcategory of "${c.category}"` +
          (guess ? ` (did you mean "${guess}"?)` : ` (one of: ${subs.join(', ')})`),
      );
    });
  });
  return problems;
}
