import { describe, expect, it } from 'vitest';
import { itunesCategoriesSourceOfTruth } from 'podcast-partytime/dist/parser/itunes-categories.js';
import { ITUNES_CATEGORIES, checkCategories } from './itunes-categories.ts';

describe('iTunes categories', () => {
  it('are the list podcast-partytime also knows', () => {
    const theirs = Object.fromEntries(
      (itunesCategoriesSourceOfTruth as Array<{ name: string; subCategories: string[] }>).map((c) => [c.name, [...c.subCategories].sort()]),
    );
    const ours = Object.fromEntries(Object.entries(ITUNES_CATEGORIES).map(([k, v]) => [k, [...v].sort()]));
    expect(ours).toEqual(theirs);
  });

  it('suggests the likely category or subcategory', () => {
    expect(checkCategories([{ category: 'Technolgy', subcategories: [] }])).toEqual([
      'categories.0.category "Technolgy" is not an Apple Podcasts category (did you mean "Technology"?)',
    ]);
    expect(checkCategories([{ category: 'Science', subcategories: ['Natural Science', 'Cooking'] }])).toEqual([
      'categories.0.subcategories.0 "Natural Science" is not a subcategory of "Science" (did you mean "Natural Sciences"?)',
      expect.stringMatching(/^categories.0.subcategories.1 "Cooking" is not a subcategory of "Science" \(one of: Astronomy, /),
    ]);
    expect(checkCategories([{ category: 'Technology', subcategories: ['AI'] }])).toEqual([
      'categories.0.subcategories.0 "AI": "Technology" has no subcategories',
    ]);
    expect(checkCategories([{ category: 'Society & Culture', subcategories: ['Documentary'] }])).toEqual([]);
  });
});
