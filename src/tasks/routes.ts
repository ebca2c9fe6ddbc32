// The scheduled-task routes: CRUD, pause/resume, executions and their cancellation.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ownerOf } from '../http/auth.js';
import { uuidParam } from '../http/errors.js';
import {
  type CreateTaskBody,
  createTaskSchema,
  executionsQuerySchema,
  pauseSchema,
  type UpdateTaskBody,
  updateTaskSchema,
} from './schema.js';
import type { TaskService } from './service.js';

type Params = { taskId: string; executionId?: string };

function taskIdOf(request: FastifyRequest<{ Params: Params }>): string {
  return uuidParam(request.params.taskId, 'task');
}

export function taskRoutes(service: TaskService) {
  return (app: FastifyInstance): void => {
    const tags = ['scheduled tasks'];
    app.post<{ Body: CreateTaskBody }>(
      '/v1/scheduled-tasks',
      { schema: { tags, summary: 'Create a scheduled task', body: createTaskSchema } },
      async (request, reply) => {
        const data = await service.create(ownerOf(request), request.body);
        return reply.status(201).send({ success: true, data });
      },
    );
    app.get('/v1/scheduled-tasks', { schema: { tags, summary: 'List scheduled tasks' } }, async (request) => ({
      success: true,
      data: await service.list(ownerOf(request)),
    }));
    app.get<{ Params: Params }>(
      '/v1/scheduled-tasks/:taskId',
      { schema: { tags, summary: 'One scheduled task' } },
      async (request) => ({
        success: true,
        data: await service.get(ownerOf(request), taskIdOf(request)),
      }),
    );
    app.put<{ Params: Params; Body: UpdateTaskBody }>(
      '/v1/scheduled-tasks/:taskId',
      { schema: { tags, summary: 'Update a scheduled task (any subset of fields)', body: updateTaskSchema } },
      async (request) => {
        const id = taskIdOf(request);
        return { success: true, data: await service.update(ownerOf(request), id, request.body) };
      },
    );
    app.patch<{ Params: Params; Body: z.infer<typeof pauseSchema> }>(
      '/v1/scheduled-tasks/:taskId/pause',
      { schema: { tags, summary: 'Pause a task', body: pauseSchema } },
      async (request) => {
        const id = taskIdOf(request);
        return {
          success: true,
          message: 'Task paused',
          data: await service.pause(ownerOf(request), id, request.body?.reason),
        };
      },
    );
    app.patch<{ Params: Params }>(
      '/v1/scheduled-tasks/:taskId/resume',
      { schema: { tags, summary: 'Resume a task' } },
      async (request) => ({
        success: true,
        message: 'Task resumed',
        data: await service.resume(ownerOf(request), taskIdOf(request)),
      }),
    );
    app.delete<{ Params: Params }>(
      '/v1/scheduled-tasks/:taskId',
      { schema: { tags, summary: 'Delete a task and its executions' } },
      async (request) => {
        await service.remove(ownerOf(request), taskIdOf(request));
        return { success: true, message: 'Task deleted' };
      },
    );
    app.get<{ Params: Params; Querystring: z.infer<typeof executionsQuerySchema> }>(
      '/v1/scheduled-tasks/:taskId/executions',
      { schema: { tags, summary: 'Executions, newest first', querystring: executionsQuerySchema } },
      async (request) => {
        const id = taskIdOf(request);
        return service.executions(ownerOf(request), id, request.query.limit ?? 100, request.query.offset ?? 0);
      },
    );
    app.delete<{ Params: Params }>(
      '/v1/scheduled-tasks/:taskId/executions/:executionId',
      { schema: { tags, summary: 'Cancel a pending or running execution' } },
      async (request) => {
        const id = taskIdOf(request);
        const executionId = uuidParam(request.params.executionId, 'execution');
        await service.cancelExecution(ownerOf(request), id, executionId);
        return { success: true, message: 'Execution cancelled' };
      },
    );
  };
}
