import type { Route } from '../types.ts';

export const routes: Route[] = [];
