/** POST /donate (donate.ts): loaded with the first tip request, since nothing else needs it or the jose it uses. */
import type { Route } from '../types.ts';
import { lazy } from '../lazy.ts';

export const routes: Route[] = [{ path: '/donate', cors: true, methods: { POST: lazy(() => import('./donate.ts'), (m) => m.postDonate) } }];
