// Running a template as AnyCrawl's execute endpoint and the `template` task type do: the caller gives only the input
// the template's type needs (`url` or `query`) and variables; every other option is the template's.
import type { CrawlRequest } from '../crawl/schema.js';
import type { CrawlService } from '../crawl/service.js';
import type { ScrapeRequest } from '../scrape/schema.js';
import type { ScrapeService, ScrapeSuccess } from '../scrape/service.js';
import type { SearchRequest } from '../search/schema.js';
import type { SearchService, SearchSuccess } from '../search/service.js';
import type { ExecuteTemplateBody } from './schema.js';
import type { TemplateService } from './service.js';
import { templateInput } from './task-payload.js';

export type TemplateRun =
  | { type: 'scrape'; result: ScrapeSuccess }
  | { type: 'search'; result: SearchSuccess }
  | { type: 'crawl'; result: { job_id: string; status: 'created'; message: string } };

export interface TemplateRunnerDeps {
  templates: TemplateService;
  scrape: ScrapeService;
  crawl: CrawlService;
  search: SearchService;
}

export class TemplateRunner {
  constructor(private readonly deps: TemplateRunnerDeps) {}

  /** `jobId` lets the scheduler know the job's id before a scrape or search ends. */
  async run(
    ownerId: string,
    ref: string,
    input: ExecuteTemplateBody,
    signal?: AbortSignal,
    run: { jobId?: string } = {},
  ): Promise<TemplateRun> {
    const { templates } = this.deps;
    const template = await templates.get(ownerId, ref);
    const type = template.content.template_type;
    const own = templateInput(type, input);
    const { body, template: made } = await templates.resolve(ownerId, template.id, type, own, input.variables);
    if (type === 'scrape') {
      const request = templates.validate<ScrapeRequest>('scrape', body);
      const result = await this.deps.scrape.scrape(ownerId, request, signal, { template: made, ...run });
      return { type, result };
    }
    if (type === 'search') {
      const request = templates.validate<SearchRequest>('search', body);
      const result = await this.deps.search.search(ownerId, request, signal, { template: made, ...run });
      return { type, result };
    }
    const request = templates.validate<CrawlRequest>('crawl', body);
    return { type, result: await this.deps.crawl.create(ownerId, request, made) };
  }
}
