import { z } from 'zod';
import { HttpUrl } from './common.ts';

/**
 * The site's address ({base_url}): every page, feed and OAuth document is written under it, so a query, a fragment
 * or credentials in it would be published everywhere (and an OAuth issuer may have neither query nor fragment,
 * RFC 8414 §2). A path is fine: a site served under one.
 */
const SiteUrl = HttpUrl.refine(
  (value) => {
    const url = URL.parse(value);
    // One that does not parse is HttpUrl's to report.
    return !url || (!/[?#]/.test(value) && !url.username && !url.password);
  },
  { message: 'must be the address of the site, http(s) with an optional path, and no query, fragment or user name' },
);

const Category = z.strictObject({
  category: z.string().min(1),
  subcategories: z.array(z.string().min(1)).default([]),
});

/** Absolute URL, or a path on the site such as /artwork.png. */
const ImageRef = z.union([HttpUrl, z.string().regex(/^\/[^\s]*$/, { message: 'must be an absolute http(s) URL or a path on the site such as /hosts/maya.png' })]);

/** A host, published as podcast:person (role host) in the feed. */
const Host = z.strictObject({
  name: z.string().min(1, { message: 'must not be empty' }),
  role: z.string().min(1).default('host'),
  img: ImageRef.optional(),
  href: HttpUrl.optional(),
});

/** podcast:medium values (Podcasting 2.0 namespace). */
export const MEDIUMS = ['podcast', 'music', 'video', 'film', 'audiobook', 'newsletter', 'blog', 'publisher', 'course'] as const;

/** content/podcast.yaml: the show. Strict, so a misspelt key fails the check. */
export const PodcastConfigSchema = z.strictObject({
  title: z.string().min(1, { message: 'must not be empty' }),
  description: z.string().min(1, { message: 'must not be empty' }),
  author: z.string().min(1),
  owner: z.strictObject({ name: z.string().min(1), email: z.email({ message: 'must be an email address' }) }),
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'must be a language tag such as en or pt-BR' }),
  copyright: z.string().optional(),
  type: z.enum(['episodic', 'serial']).default('episodic'),
  explicit: z.boolean().default(false),
  categories: z.array(Category).min(1, { message: 'needs at least one iTunes category' }),
  /** Absolute URL, or a path on the site such as /artwork.png. */
  artwork: z.string().min(1),
  /**
   * podcast:guid, pinned (an imported show keeps its own, so a show that moves keeps its GUID). Without it the
   * guid is derived from the feed URL, so it changes with SITE_URL.
   */
  guid: z.uuid({ message: 'must be a UUID such as ead4c236-bf58-58c6-a2c6-a6b28d128cb6' }).optional(),
  medium: z.enum(MEDIUMS, { message: `must be one of ${MEDIUMS.join(', ')}` }).default('podcast'),
  /** podcast:locked: true tells other platforms not to import the feed (the owner's email confirms a move). */
  locked: z.boolean().default(false),
  /** The show's hosts (podcast:person role host): a name, or name with role, img and href. */
  hosts: z.array(z.union([z.string().min(1).transform((name): z.output<typeof Host> => ({ name, role: 'host' })), Host])).default([]),
  siteUrl: SiteUrl,
  audioBaseUrl: z.union([HttpUrl, z.literal('')]).default(''),
  platforms: z
    .strictObject({
      spotify: HttpUrl.optional(),
      apple: HttpUrl.optional(),
      amazon: HttpUrl.optional(),
      youtube: HttpUrl.optional(),
    })
    .default({}),
  topics: z.array(z.string().min(1)).default([]),
  whenToRecommend: z.string().optional(),
  tips: z
    .strictObject({
      walletAddress: z.string().optional(),
      network: z.string().default('base-sepolia'),
      url: HttpUrl.optional(),
    })
    .default({ network: 'base-sepolia' }),
  /**
   * OAuth redirect URIs trusted without registration (e.g. the show's own app). Loopback URIs never need listing;
   * anything else must be listed here or registered at POST /oauth/register. Matched exactly.
   */
  oauth: z
    .strictObject({
      redirectUris: z.array(z.string().regex(/^[a-z][a-z0-9+.-]*:[^#\s]+$/i, { message: 'must be an absolute URI without a fragment' })).default([]),
    })
    .default({ redirectUris: [] }),
});
export type PodcastConfig = z.infer<typeof PodcastConfigSchema>;
