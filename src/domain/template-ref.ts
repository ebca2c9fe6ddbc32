// Which template (and version) a request was expanded from: recorded with the job it made (docs/templates.md).
export interface TemplateRef {
  id: string;
  version: number;
}
