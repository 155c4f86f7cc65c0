// Problem classes. A `DataclassHTTPError`'s params schema is a zod object like every model here (named
// as the demo's Struct is, for the OpenAPI component); the wire answer is the demo's.
import { z } from 'zod';
import { DataclassHTTPError, HTTPError, named } from '@api/core';

export const WidgetNotFoundParams = named('WidgetNotFoundParams', z.object({ widgetId: z.string() }));

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
