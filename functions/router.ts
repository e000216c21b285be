import type { Route } from './types.ts';

export interface RouteMatch {
  route: Route;
}

/** Exact-path routing: the API surface is a fixed set of paths, so a Map lookup is all it takes. */
export class Router {
  readonly #routes = new Map<string, Route>();

  constructor(routes: Route[]) {
    for (const route of routes) {
      if (this.#routes.has(route.path)) throw new Error(`route ${route.path} is registered twice`);
      this.#routes.set(route.path, route);
    }
  }

  match(pathname: string): Route | undefined {
    return this.#routes.get(pathname) ?? (pathname.length > 1 && pathname.endsWith('/') ? this.#routes.get(pathname.slice(0, -1)) : undefined);
  }

  /** The Allow header value for a route: its methods, HEAD with GET, and OPTIONS. */
  static allow(route: Route): string {
    const methods = Object.keys(route.methods);
    if (methods.includes('GET')) methods.push('HEAD');
    methods.push('OPTIONS');
    return methods.join(', ');
  }

  get routes(): Route[] {
    return [...this.#routes.values()];
  }
}
