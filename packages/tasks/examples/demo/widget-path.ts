// Already in apps/demo/src/models.ts (kept here so the pieces compile on their own).
import * as v from 'valibot';
import { Struct } from '@api/core';

export const WidgetPath = Struct('WidgetPath', { widget_id: v.pipe(v.string(), v.minLength(1)) });
