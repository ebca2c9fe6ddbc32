// The monitor routes (docs/monitors.md), at AnyCrawl's paths: CRUD, pause/resume, check now, and the history of checks,
// snapshots and changes (cursor-paged as `{data, pagination:{has_more, next_cursor}}`).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ownerOf } from '../http/auth.js';
import { uuidParam } from '../http/errors.js';
import { pauseSchema } from '../tasks/schema.js';
import {
  type CreateMonitorBody,
  createMonitorSchema,
  type HistoryQuery,
  historyQuerySchema,
  listQuerySchema,
  type UpdateMonitorBody,
  updateMonitorSchema,
} from './schema.js';
import type { MonitorService } from './service.js';

type Params = { monitorId: string; itemId?: string };

function monitorIdOf(request: FastifyRequest<{ Params: Params }>): string {
  return uuidParam(request.params.monitorId, 'monitor');
}

export function monitorRoutes(service: MonitorService) {
  return (app: FastifyInstance): void => {
    const tags = ['monitors'];
    app.post<{ Body: CreateMonitorBody }>(
      '/v1/monitors',
      { schema: { tags, summary: 'Create a monitor', body: createMonitorSchema } },
      async (request, reply) => {
        const data = await service.create(ownerOf(request), request.body);
        return reply.status(201).send({ success: true, data });
      },
    );
    app.get<{ Querystring: z.infer<typeof listQuerySchema> }>(
      '/v1/monitors',
      { schema: { tags, summary: 'List monitors, newest first', querystring: listQuerySchema } },
      async (request) => ({ success: true, data: await service.list(ownerOf(request), request.query.limit ?? 1000) }),
    );
    // Before /v1/monitors/:monitorId, which it would otherwise match.
    app.get<{ Querystring: HistoryQuery }>(
      '/v1/monitors/changes',
      { schema: { tags, summary: 'Changes across all monitors, newest first', querystring: historyQuerySchema } },
      async (request) => ({ success: true, ...(await service.changeFeed(ownerOf(request), request.query)) }),
    );
    app.get<{ Params: Params }>(
      '/v1/monitors/:monitorId',
      { schema: { tags, summary: 'One monitor' } },
      async (request) => ({
        success: true,
        data: await service.get(ownerOf(request), monitorIdOf(request)),
      }),
    );
    app.patch<{ Params: Params; Body: UpdateMonitorBody }>(
      '/v1/monitors/:monitorId',
      { schema: { tags, summary: 'Update a monitor (any subset of fields)', body: updateMonitorSchema } },
      async (request) => {
        const id = monitorIdOf(request);
        return { success: true, data: await service.update(ownerOf(request), id, request.body) };
      },
    );
    app.delete<{ Params: Params }>(
      '/v1/monitors/:monitorId',
      { schema: { tags, summary: 'Delete a monitor, its schedule and its history' } },
      async (request) => {
        await service.remove(ownerOf(request), monitorIdOf(request));
        return { success: true, message: 'Monitor deleted' };
      },
    );
    app.post<{ Params: Params; Body: z.infer<typeof pauseSchema> }>(
      '/v1/monitors/:monitorId/pause',
      { schema: { tags, summary: 'Pause a monitor', body: pauseSchema } },
      async (request) => {
        const id = monitorIdOf(request);
        return {
          success: true,
          message: 'Monitor paused',
          data: await service.pause(ownerOf(request), id, request.body?.reason),
        };
      },
    );
    app.post<{ Params: Params }>(
      '/v1/monitors/:monitorId/resume',
      { schema: { tags, summary: 'Resume a monitor' } },
      async (request) => ({
        success: true,
        message: 'Monitor resumed',
        data: await service.resume(ownerOf(request), monitorIdOf(request)),
      }),
    );
    app.post<{ Params: Params }>(
      '/v1/monitors/:monitorId/check',
      { schema: { tags, summary: 'Queue a check now' } },
      async (request, reply) => {
        const data = await service.checkNow(ownerOf(request), monitorIdOf(request));
        return reply.status(202).send({ success: true, message: 'Check queued', data });
      },
    );
    app.get<{ Params: Params; Querystring: HistoryQuery }>(
      '/v1/monitors/:monitorId/snapshots',
      { schema: { tags, summary: 'Snapshots, newest first', querystring: historyQuerySchema } },
      async (request) => ({
        success: true,
        ...(await service.snapshots(ownerOf(request), monitorIdOf(request), request.query)),
      }),
    );
    app.get<{ Params: Params }>(
      '/v1/monitors/:monitorId/snapshots/:itemId',
      { schema: { tags, summary: 'One snapshot, with its text and extracted fields' } },
      async (request) => {
        const id = monitorIdOf(request);
        const snapshotId = uuidParam(request.params.itemId, 'snapshot');
        return { success: true, data: await service.snapshot(ownerOf(request), id, snapshotId) };
      },
    );
    app.get<{ Params: Params; Querystring: HistoryQuery }>(
      '/v1/monitors/:monitorId/changes',
      { schema: { tags, summary: 'Changes, newest first', querystring: historyQuerySchema } },
      async (request) => ({
        success: true,
        ...(await service.changes(ownerOf(request), monitorIdOf(request), request.query)),
      }),
    );
    app.get<{ Params: Params }>(
      '/v1/monitors/:monitorId/changes/:itemId',
      { schema: { tags, summary: 'One change, with its notifications' } },
      async (request) => {
        const id = monitorIdOf(request);
        const changeId = uuidParam(request.params.itemId, 'change');
        return { success: true, data: await service.change(ownerOf(request), id, changeId) };
      },
    );
    app.get<{ Params: Params; Querystring: HistoryQuery }>(
      '/v1/monitors/:monitorId/checks',
      { schema: { tags, summary: 'Checks, newest first', querystring: historyQuerySchema } },
      async (request) => ({
        success: true,
        data: await service.checks(ownerOf(request), monitorIdOf(request), request.query.limit),
      }),
    );
    app.get<{ Params: Params; Querystring: HistoryQuery }>(
      '/v1/monitors/:monitorId/notifications',
      {
        schema: {
          tags,
          summary: 'Webhook deliveries of the monitor’s events, newest first',
          querystring: historyQuerySchema,
        },
      },
      async (request) => {
        const id = monitorIdOf(request);
        return { success: true, data: await service.notificationsOf(ownerOf(request), id, request.query.limit ?? 50) };
      },
    );
  };
}
