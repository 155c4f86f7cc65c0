import type { Exchange } from '../contract/exchange';
import type { RoutePlan } from '../contract/route-plan';

export type { HeaderPairs } from '../contract/route-plan';
import type { Binder } from '../binding/binders';
import type { BeforeStep } from '../contract/contribution';
import type { BodyTransform } from '../contract/body-transform';
import type { RouteInfo } from '../contract/route-info';
import type { Writer } from '../responses/writers';
import { isSingletonHeader } from '../http/owned-fields';

/** The named steps of one route, decided at wiring. An absent step is `undefined` and costs nothing. */
export interface PlanSteps extends Omit<RoutePlan, 'constantOnce'> {
  /** Mount intercepts (scoped middleware, extension intercepts): a returned response answers. */
  readonly intercepts: ReadonlyArray<(ex: Exchange) => unknown> | undefined;
  /** Pre-handler steps (authenticate → 401 before any body read). */
  readonly before: readonly BeforeStep[] | undefined;
  /** Binding: `input[keys[i]] = binders[i](ex)`. */
  readonly keys: readonly string[];
  readonly binders: readonly Binder[];
  /** The handler: an operation's (ignores `ex`), or an extension route's `handle(ex, input)`. */
  readonly invoke: (input: Record<string, unknown>, ex: Exchange) => unknown;
  /** Writes the handler's value (operations); extension routes answer themselves. */
  readonly write: Writer | undefined;
  /** The route's run inside its `around` hooks (composed once at wiring): what the runner calls then. */
  readonly aroundRun: ((ex: Exchange) => void) | undefined;
  /** The route's deadline to the head of its answer, ms (`limits.deadlineMs`; operations only). */
  readonly deadlineMs: number | undefined;
  /** True when the route binds the request's `signal`. */
  readonly signal: boolean;
}

/**
 * A compiled route. One runner executes every plan; the fields are fixed at construction so every
 * plan has the same shape (one hidden class on the hot path).
 */
export class Plan implements PlanSteps, RoutePlan {
  readonly info: RouteInfo;
  readonly intercepts: PlanSteps['intercepts'];
  readonly before: PlanSteps['before'];
  readonly keys: readonly string[];
  readonly binders: readonly Binder[];
  readonly invoke: PlanSteps['invoke'];
  readonly write: Writer | undefined;
  readonly constantHeaders: readonly string[];
  readonly dynamicHeaders: PlanSteps['dynamicHeaders'];
  readonly observers: PlanSteps['observers'];
  readonly closeObservers: PlanSteps['closeObservers'];
  readonly around: PlanSteps['around'];
  readonly aroundRun: PlanSteps['aroundRun'];
  readonly errorHeaders: PlanSteps['errorHeaders'];
  readonly options: PlanSteps['options'];
  readonly optionsConstantHeaders: readonly string[];
  readonly optionsDynamicHeaders: PlanSteps['optionsDynamicHeaders'];
  readonly transform: BodyTransform | undefined;
  /**
   * The constant route headers that are fields sent once (`server`, `access-control-allow-origin`,
   * …), checked against each answer's own head; undefined (most routes) costs nothing.
   */
  readonly constantOnce: readonly string[] | undefined;
  readonly deadlineMs: number | undefined;
  readonly signal: boolean;
  /** True when each request gets a `RequestControl` (a `signal` bound, or a deadline). */
  readonly controlled: boolean;
  /** True when nothing runs before binding and every binder is synchronous: no await until the handler. */
  readonly sync: boolean;
  /** True when a step reads `ex.receivedAt` (observers, close observers, dynamic headers, intercepts). */
  readonly timed: boolean;
  /**
   * Step positions of the general path: intercepts `[0, firstBefore)`, before-steps
   * `[firstBefore, firstBinder)`, binders `[firstBinder, handlerStep)`, the handler, then the writer.
   */
  readonly firstBefore: number;
  readonly firstBinder: number;
  readonly handlerStep: number;

  constructor(steps: PlanSteps & { readonly asyncBinders: boolean }) {
    this.info = steps.info;
    this.intercepts = steps.intercepts;
    this.before = steps.before;
    this.keys = steps.keys;
    this.binders = steps.binders;
    this.invoke = steps.invoke;
    this.write = steps.write;
    this.constantHeaders = steps.constantHeaders;
    this.dynamicHeaders = steps.dynamicHeaders;
    this.observers = steps.observers;
    this.closeObservers = steps.closeObservers;
    this.around = steps.around;
    this.aroundRun = steps.aroundRun;
    this.errorHeaders = steps.errorHeaders;
    this.options = steps.options;
    this.optionsConstantHeaders = steps.optionsConstantHeaders;
    this.optionsDynamicHeaders = steps.optionsDynamicHeaders;
    this.transform = steps.transform;
    const once = steps.constantHeaders.filter((name, i) => i % 2 === 0 && isSingletonHeader(name));
    this.constantOnce = once.length > 0 ? once : undefined;
    this.deadlineMs = steps.deadlineMs;
    this.signal = steps.signal;
    this.controlled = steps.signal || steps.deadlineMs !== undefined;
    this.sync = !steps.asyncBinders && steps.intercepts === undefined && steps.before === undefined;
    this.timed =
      steps.observers !== undefined ||
      steps.closeObservers !== undefined ||
      steps.dynamicHeaders !== undefined ||
      steps.intercepts !== undefined;
    this.firstBefore = steps.intercepts?.length ?? 0;
    this.firstBinder = this.firstBefore + (steps.before?.length ?? 0);
    this.handlerStep = this.firstBinder + steps.keys.length;
  }
}
