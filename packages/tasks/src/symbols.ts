// Internal symbols of @api/tasks, in one place.

/** The method a `TaskBackend` builds its engine with. */
export const kCreateEngine: unique symbol = Symbol('@api/tasks.createEngine');
