/** This area's routes, children of appRoute; a tuple (as const) keeps links to them typed. */
export const originationsRoutes = [] as const;
