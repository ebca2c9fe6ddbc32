// Summarizes V8 .cpuprofile files (node --cpu-prof, one per thread) into self time per function and per package.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  threads: number;
  totalMs: number;
  idleMs: number;
  byFunction: Array<{ name: string; ms: number }>;
  byArea: Array<{ name: string; ms: number }>;
}

/** Package (node_modules/<pkg>), our source file, node internals, or V8's own buckets. */
function areaOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 14).split('/');
    return (parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]) ?? url;
  }
  if (url.startsWith('node:')) return 'node internals';
  const src = url.indexOf('/dist/src/');
  if (src >= 0) return `src/${url.slice(src + 10).replace(/\.js$/, '.ts')}`;
  return url.replace(/^file:\/\//, '');
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + 14);
  const src = url.indexOf('/dist/src/');
  if (src >= 0) return `src/${url.slice(src + 10)}`;
  return url.replace(/^file:\/\//, '');
}

export function summarizeProfiles(dir: string, top = 25): ProfileSummary {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const nodes = new Map<number, CallFrame>(profile.nodes.map((n) => [n.id, n.callFrame]));
    for (let k = 0; k < profile.samples.length; k++) {
      const frame = nodes.get(profile.samples[k] ?? -1);
      // timeDeltas[k] is the time since the previous sample; close enough to this sample's duration.
      const ms = (profile.timeDeltas[k] ?? 0) / 1000;
      if (!frame) continue;
      if (frame.functionName === '(idle)') {
        idleMs += ms;
        continue;
      }
      totalMs += ms;
      const name = frame.url
        ? `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`
        : frame.functionName || '(native)';
      byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
      const area = areaOf(frame);
      byArea.set(area, (byArea.get(area) ?? 0) + ms);
    }
  }
  const sorted = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms }));
  return { threads: files.length, totalMs, idleMs, byFunction: sorted(byFunction), byArea: sorted(byArea) };
}
