// Problem classes. A `DataclassHTTPError`'s params schema is still a valibot Struct (core does not take a
// Standard Schema there yet: see core's README, "Bring your own schemas"); the wire answer is the demo's.
import * as v from 'valibot';
import { DataclassHTTPError, HTTPError, Struct } from '@api/core';

export const WidgetNotFoundParams = Struct('WidgetNotFoundParams', { widgetId: v.string() });

/** 404 for an unknown widget id; `detail` "Widget <id> not found", `params.widgetId`. */
export class WidgetNotFoundError extends DataclassHTTPError.define(WidgetNotFoundParams, {
  type: 'widget-not-found',
  title: 'Widget not found',
  status: 404,
  detailTemplate: 'Widget {widgetId} not found',
}) {}

/** 401 for a token that is present but unknown. */
export class InvalidTokenError extends HTTPError.define({
  type: 'invalid-token',
  title: 'Invalid token',
  status: 401,
}) {}
