/**
 * A diagnostic audit for the bench (in no scored category): what Lighthouse's simulation (lantern)
 * puts before the LCP. Simulated LCP is the mean of an optimistic and a pessimistic estimate, each
 * the end of the last node of a graph: the requests that had finished by the observed LCP and the
 * main-thread tasks the paint needed (the first ParseHTML, layout and paint, and the evaluation of
 * scripts loaded by then), replayed at slow 4G and 4× CPU. Lists every node of both graphs with
 * its simulated timing, so the difference between two pages reads as bytes, round trips and tasks.
 */
import { Audit } from 'lighthouse';
import type { Artifacts } from 'lighthouse';
// Lighthouse's own computed artifact (no public export; the package has no "exports" map).
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';

export const LANTERN_LCP_AUDIT = 'bench-lantern-lcp';

/** One node of a lantern graph, simulated times in milliseconds from the navigation. */
export type LanternNode = {
  kind: 'network' | 'cpu';
  /** The request's path, or the task's notable events (ParseHTML, Layout, Paint, EvaluateScript url…). */
  what: string;
  start: number;
  end: number;
  /** Network: bytes on the wire; cpu: observed duration in ms (before the CPU slowdown). */
  bytes?: number;
  observedMs?: number;
  priority?: string;
};

export type LanternLcp = {
  lcp: number;
  optimisticMs: number;
  pessimisticMs: number;
  optimistic: LanternNode[];
  pessimistic: LanternNode[];
};

type Timing = { startTime: number; endTime: number };
type GraphNode = {
  type: 'network' | 'cpu';
  duration?: number;
  childEvents?: { name: string; args?: { data?: { url?: string } } }[];
  request?: { url: string; transferSize: number; priority: string };
};
type Estimate = { timeInMs: number; nodeTimings: Map<GraphNode, Timing> };

const NOTABLE = ['ParseHTML', 'Layout', 'UpdateLayoutTree', 'Paint', 'EvaluateScript', 'v8.compileModule'];

function what(node: GraphNode): string {
  if (node.type === 'network' && node.request) {
    const url = node.request.url;
    return url.startsWith('data:') ? 'data: URL' : new URL(url).pathname;
  }
  const names = new Map<string, number>();
  for (const event of node.childEvents ?? []) {
    if (!NOTABLE.includes(event.name)) continue;
    const url = event.name === 'EvaluateScript' ? event.args?.data?.url : undefined;
    const name = url ? `EvaluateScript ${new URL(url).pathname}` : event.name;
    names.set(name, (names.get(name) ?? 0) + 1);
  }
  if (!names.size) {
    // No notable event: name the task by its longest child events.
    const events = [...(node.childEvents ?? [])] as { name: string; dur?: number }[];
    for (const event of events.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 3)) names.set(event.name, 1);
  }
  return [...names].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(', ') || 'task';
}

function nodes(estimate: Estimate): LanternNode[] {
  return [...estimate.nodeTimings]
    .map(([node, timing]) => ({
      kind: node.type,
      what: what(node),
      start: Math.round(timing.startTime),
      end: Math.round(timing.endTime),
      ...(node.type === 'network'
        ? { bytes: node.request?.transferSize ?? 0, priority: node.request?.priority }
        : { observedMs: Number(((node.duration ?? 0) / 1000).toFixed(1)) }),
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

export class LanternLcpAudit extends Audit {
  static get meta() {
    return {
      id: LANTERN_LCP_AUDIT,
      title: 'What the simulated LCP waits for (bench diagnostic)',
      description: "The nodes of lantern's optimistic and pessimistic LCP graphs, with simulated timings.",
      scoreDisplayMode: Audit.SCORING_MODES.INFORMATIVE,
      supportedModes: ['navigation' as const],
      requiredArtifacts: [
        'Trace',
        'DevtoolsLog',
        'GatherContext',
        'URL',
        'SourceMaps',
        'HostDPR',
      ] as (keyof Artifacts)[],
    };
  }

  static async audit(artifacts: Artifacts, context: Parameters<typeof Audit.makeMetricComputationDataInput>[1]) {
    const data = Audit.makeMetricComputationDataInput(artifacts, context);
    const result = (await LanternLargestContentfulPaint.request(data, context)) as unknown as {
      timing: number;
      optimisticEstimate: Estimate;
      pessimisticEstimate: Estimate;
    };
    const lantern: LanternLcp = {
      lcp: Math.round(result.timing),
      optimisticMs: Math.round(result.optimisticEstimate.timeInMs),
      pessimisticMs: Math.round(result.pessimisticEstimate.timeInMs),
      optimistic: nodes(result.optimisticEstimate),
      pessimistic: nodes(result.pessimisticEstimate),
    };
    return { score: null, details: { type: 'debugdata' as const, lantern } };
  }
}

/** Lighthouse's default config (mobile preset) plus this audit in a category of its own, unscored. */
export const configWithLanternAudit = {
  extends: 'lighthouse:default' as const,
  audits: [{ implementation: LanternLcpAudit }],
  categories: {
    'bench-diagnostics': {
      title: 'Bench diagnostics',
      auditRefs: [{ id: LANTERN_LCP_AUDIT, weight: 0 }],
    },
  },
};
