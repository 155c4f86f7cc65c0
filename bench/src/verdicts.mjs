// The targets of issue 27, judged by each method of a run, and whether the methods agree.
//
// Three methods measure the same two ratios (@api req/s ×Fastify, server CPU per request ×raw;
// the co-run's CPU ratio is set aside, below): standalone (fresh process, warm-up, one long run:
// what a user does), paired (every server alone on the core, in turns of 20 ms: the same thing
// with the machine's drift cancelled) and co-run (two servers sharing the core at once). Each
// gives a median and a 90% confidence interval: of that median, or of the mean of its blocks'
// medians where that is wider (`blockedInterval`, src/harness/stats.mjs: a block is one set of
// fresh processes, and the blocks are the independent samples). The verdict is read from the
// paired method (the standalone one when a run has no paired phase), and only stands when the
// methods agree.
//
// Agreement is a test with a stated false-alarm rate for the whole run (`AGREEMENT_ALPHA`), not
// the overlap of two 90% intervals, which has no stated error: beside a narrow paired interval a
// wide standalone one misses the paired value one time in ten with no offset at all (simulated
// five-scenario runs with no offset "disagreed" somewhere in ~20% of trials, this rule in ~6%:
// test/agreement.test.mjs), and a miss cannot tell noise from an offset of one method that every
// scenario shares (the standalone one of issue 27, below paired on 31 of 35 (scenario, run)
// pairs, smaller than any one interval). So each pair of methods is compared by the gap between
// their values in standard errors of that gap (`gapZ`: each 90% half-width facing the other is
// 1.645 standard errors), on every target (a gap too wide) and, per pair of methods and target
// kind, over all the run's scenarios at once (a lean: Stouffer's sum, Σz/√n, which grows with a
// shared offset and not with scattered noise, and whose sign holds from run to run when there is
// one). A run makes `checks` such comparisons; each may reach `zLimit = Φ⁻¹(1 − α/2k)`
// (Bonferroni), so a run whose methods measure the same thing is called in disagreement anywhere
// at most α of the time.
//
// The co-run's CPU ratio against raw is shown beside the CPU targets but is not one of their
// methods: a target is about one server on a core (what a user runs; what the standalone and
// paired phases measure), and in a co-run each server shares the core's caches with another busy
// process, which costs the larger working set more. Over the 17 runs of 2026-11-26 (full and
// quick) the co-run's CPU ratio was above the paired one in 44 of 55 (scenario, run) pairs (median
// +0.04 on `POST /movies`, +0.05 on the 422, +0.01 on `GET /info`): @api's user CPU per request was
// ×1.22 its paired figure in the co-runs of `POST /movies`, raw's ×1.15. Its req/s ratio against
// Fastify (two frameworks that both pay it: Fastify's ×1.21) shows no such offset (32 of 55 above,
// median +0.005) and stays a method.
import { r2 } from './harness/index.mjs';
import { normalQuantile } from './harness/stats.mjs';

/** The targets of issue 27: @api req/s ≥ 1.10× Fastify everywhere; CPU ≤ 1.10× raw on GET, ≤ 1.20× on POST. */
export const TARGETS = { rpsVsFastify: 1.1, cpuVsRawGet: 1.1, cpuVsRawPost: 1.2 };

/** The methods in the order the reports show them; the first present one gives the verdict after `paired`. */
export const METHODS = ['standalone', 'paired', 'corun'];
const REFERENCE = ['paired', 'standalone', 'corun'];
/** The fewest per-round ratios a method needs to say met or missed. */
export const MIN_RATIOS = 3;
/**
 * The fewest blocks (independent sets of fresh processes) it needs: one block's ratios can agree
 * closely and still miss what another set of processes measures (up to ±10% on this VM).
 */
export const MIN_BLOCKS = 2;

/**
 * `met` when the whole interval `[lo, hi]` is on the target's side of `limit`, `missed` when it is
 * all on the other side, `unsettled` when it straddles it (or nothing was measured).
 */
export function verdict([lo, hi], limit, atLeast) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'n/a';
  if (atLeast) return lo >= limit ? 'met' : hi < limit ? 'missed' : 'unsettled';
  return hi <= limit ? 'met' : lo > limit ? 'missed' : 'unsettled';
}

/** The chance that a run whose methods measure the same thing is called in disagreement anywhere. */
export const AGREEMENT_ALPHA = 0.1;
const Z90 = normalQuantile(0.95);

/** The largest |z| each of a run's `checks` comparisons may reach (two-sided, Bonferroni). */
export const zLimitFor = (checks) => normalQuantile(1 - AGREEMENT_ALPHA / (2 * Math.max(1, checks)));

/**
 * How far apart two methods' values are, in standard errors of their difference, signed (`a`
 * above `b` is positive): each one's 90% half-width on the side facing the other, over 1.645, is
 * its standard error, and the methods' samples are independent (other processes, other minutes).
 *
 * @param a `{ value, interval: [lo, hi] }`
 * @param b the same
 */
export function gapZ(a, b) {
  const gap = a.value - b.value;
  const [top, bottom] = gap >= 0 ? [a, b] : [b, a];
  const se = Math.hypot(top.value - top.interval[0], bottom.interval[1] - bottom.value) / Z90;
  if (se > 0) return gap / se;
  return gap === 0 ? 0 : Math.sign(gap) * Infinity;
}

/**
 * Under 3 ratios the interval covers the median less than 75% of the time, and one block says
 * nothing of how far another set of processes lands: too few to settle.
 */
const tooFew = (r) =>
  (r.n !== undefined && r.n < MIN_RATIOS) || (r.blocks !== undefined && r.blocks < MIN_BLOCKS);

/**
 * One target judged by every method that measured it.
 *
 * @param byMethod `{ standalone?, paired?, corun? }`, each `{ value, interval: [lo, hi], n, blocks }`
 *   (`n`: how many ratios, `blocks`: from how many sets of processes; under `MIN_RATIOS` or
 *   `MIN_BLOCKS` the method says `unsettled`)
 * @param options `aside`: methods measured under other conditions than the target's, judged and
 *   shown (marked `aside: true`) but neither in the agreement nor a source of the verdict;
 *   `zLimit`: the largest |gap| in standard errors two methods may show and agree (the run's,
 *   from `zLimitFor`; by default this target's own, as if it were the run's only one)
 * @returns per method `{ value, interval, verdict }`; `gaps` (`{ between: [a, b], z }` per pair of
 *   methods that count), `zLimit`, `agree` (undefined under two methods that count), `reference`
 *   (the method the verdict is read from) and `verdict` (its verdict when the methods agree,
 *   `unsettled` when they do not)
 */
export function judge(byMethod, limit, atLeast, { aside = [], zLimit } = {}) {
  const methods = {};
  for (const m of METHODS) {
    const r = byMethod[m];
    if (!r || !Number.isFinite(r.value)) continue;
    methods[m] = { ...r, verdict: tooFew(r) ? 'unsettled' : verdict(r.interval, limit, atLeast) };
    if (aside.includes(m)) methods[m].aside = true;
  }
  // A method with too few ratios to settle a target cannot contradict the others either.
  const counts = (r) => r && !tooFew(r) && !r.aside && r.interval.every(Number.isFinite);
  const enough = METHODS.filter((m) => counts(methods[m]));
  const gaps = [];
  for (let i = 0; i < enough.length; i++)
    for (let j = i + 1; j < enough.length; j++)
      gaps.push({ between: [enough[i], enough[j]], z: gapZ(methods[enough[i]], methods[enough[j]]) });
  const zl = zLimit ?? zLimitFor(gaps.length);
  const agree = gaps.length === 0 ? undefined : gaps.every((g) => Math.abs(g.z) <= zl);
  const reference = REFERENCE.find((m) => methods[m] && !methods[m].aside);
  const own = reference ? methods[reference].verdict : 'n/a';
  return { methods, gaps, zLimit: zl, agree, reference, limit, verdict: agree === false ? 'unsettled' : own };
}

/**
 * The two targets of one scenario.
 *
 * @param sc the scenario (`method` decides the CPU limit)
 * @param rows `{ standalone?, paired? }`: @api's aggregate row of each phase (src/report.mjs)
 * @param co the scenario's co-run summaries by pair (`api/fastify`, `api/raw`)
 * @param options `zLimit`: the run's (`judge`)
 */
export function targetsOf(sc, { standalone, paired } = {}, co = {}, { zLimit } = {}) {
  const cpuLimit = sc.method === 'GET' ? TARGETS.cpuVsRawGet : TARGETS.cpuVsRawPost;
  const of = (row, field) =>
    row && {
      value: row[field],
      interval: row[`${field}Interval`],
      n: row[`${field}Pairs`],
      blocks: row[`${field}Blocks`],
    };
  const ofCo = (pair, kind) =>
    co[pair] && {
      value: co[pair][`${kind}Ratio`],
      interval: co[pair][`${kind}Interval`],
      n: co[pair].rounds,
      blocks: co[pair].blocks,
    };
  return {
    rps: judge(
      {
        standalone: of(standalone, 'rpsVsFastify'),
        paired: of(paired, 'rpsVsFastify'),
        corun: ofCo('api/fastify', 'rps'),
      },
      TARGETS.rpsVsFastify,
      true,
      { zLimit },
    ),
    cpu: judge(
      {
        standalone: of(standalone, 'cpuVsRaw'),
        paired: of(paired, 'cpuVsRaw'),
        corun: ofCo('api/raw', 'cpu'),
      },
      cpuLimit,
      false,
      { aside: ['corun'], zLimit },
    ),
  };
}

/** The two target kinds of a scenario, in the order reports show them. */
const KINDS = ['rps', 'cpu'];
/** A gap's or a lean's pair of methods, as one key (`standalone/paired`). */
const pairKey = (g) => g.between.join('/');

/**
 * Every target of a run, with the run's agreement: each target's gaps and, per pair of methods
 * and target kind, their lean over the scenarios (Stouffer's Σz/√n of the signed gaps, two
 * scenarios or more), every one held to the same `zLimit` (`AGREEMENT_ALPHA` over all of them).
 * A lean past it withholds the verdict of every target of that kind that both methods measured.
 *
 * @param scenarios the run's scenarios
 * @param rows `{ standalone?, paired? }`: @api's aggregate row of each phase by scenario
 * @param coRows the co-run summaries by scenario, then by pair
 * @returns `{ byScenario, agreement: { checks, zLimit, leans: [{ kind, between, n, z, apart }] } }`
 */
export function targetsOfRun(scenarios, { standalone = {}, paired = {} } = {}, coRows = {}) {
  const input = (sc) => [sc, { standalone: standalone[sc.name], paired: paired[sc.name] }, coRows[sc.name]];
  const first = scenarios.map((sc) => targetsOf(...input(sc)));
  const leans = [];
  for (const kind of KINDS) {
    const byPair = new Map();
    for (const t of first)
      for (const g of t[kind].gaps) byPair.set(pairKey(g), [...(byPair.get(pairKey(g)) ?? []), g.z]);
    for (const [key, zs] of byPair)
      if (zs.length >= 2)
        leans.push({
          kind,
          between: key.split('/'),
          n: zs.length,
          z: zs.reduce((a, z) => a + z, 0) / Math.sqrt(zs.length),
        });
  }
  const checks = first.reduce((n, t) => n + t.rps.gaps.length + t.cpu.gaps.length, 0) + leans.length;
  const zLimit = zLimitFor(checks);
  for (const lean of leans) lean.apart = Math.abs(lean.z) > zLimit;
  const byScenario = {};
  for (const sc of scenarios) {
    const t = targetsOf(...input(sc), { zLimit });
    for (const kind of KINDS) {
      const leaning = leans.filter(
        (l) => l.apart && l.kind === kind && t[kind].gaps.some((g) => pairKey(g) === pairKey(l)),
      );
      if (leaning.length === 0) continue;
      t[kind] = { ...t[kind], agree: false, leans: leaning, verdict: 'unsettled' };
    }
    byScenario[sc.name] = t;
  }
  return { byScenario, agreement: { checks, zLimit, leans } };
}

const interval = (r) => `${r2(r.value)} (${r2(r.interval[0])}–${r2(r.interval[1])})`;
const agreeWord = (t) =>
  t.agree === undefined ? 'one method' : t.agree ? 'methods agree' : 'methods disagree';

/**
 * The closing line of `pnpm bench` (`--quick` and `--standalone` print the same line): per
 * scenario, the reference method's ratios with their intervals, the verdicts, and whether the
 * methods agree.
 */
export function summaryLine(byScenario, scenarios = []) {
  const part = (name) => {
    const t = byScenario[name];
    if (!t) return `${name} n/a`;
    const rps = t.rps.methods[t.rps.reference];
    const cpu = t.cpu.methods[t.cpu.reference];
    if (!rps || !cpu) return `${name} n/a`;
    return (
      `${name} api/fastify ${interval(rps)} api/raw-cpu ${interval(cpu)} [${t.rps.reference}; ` +
      `req/s target ${t.rps.verdict}, cpu target ${t.cpu.verdict}; ${agreeWord(t.rps)}, ${agreeWord(t.cpu)}]`
    );
  };
  const names = ['info', 'movies'].filter(
    (n) => scenarios.length === 0 || scenarios.some((s) => s.name === n),
  );
  return `bench: ${names.map(part).join('; ')}`;
}

const NAMES = { standalone: 'standalone', paired: 'paired', corun: 'co-run' };
const KIND_NAMES = { rps: 'req/s ×Fastify', cpu: 'CPU ×raw' };
const z1 = (z) =>
  Number.isFinite(z) ? `${z >= 0 ? '+' : '−'}${Math.abs(z).toFixed(1)}` : z > 0 ? '+∞' : '−∞';

/**
 * The "Targets and agreement" section of a report.
 *
 * @param byScenario the targets by scenario (`targetsOfRun`'s `byScenario`)
 * @param agreement `targetsOfRun`'s `agreement` (`checks`, `zLimit`, `leans`)
 */
export function targetsMarkdown(scenarios, byScenario, agreement) {
  const L = ['## Targets and agreement', ''];
  const limit = agreement ? agreement.zLimit.toFixed(2) : 'n/a';
  L.push(
    '@api req/s ×Fastify (target ≥ 1.10) and server CPU per request ×raw (target ≤ 1.10 on GET, ≤ 1.20 on POST): ' +
      'the median of each method with a 90% confidence interval of that median (distribution-free, from the order ' +
      'statistics of its per-round ratios; min–max when there are under 5, with lower coverage), or the 90% ' +
      "t-interval of the mean of its blocks' own medians where that is wider (a block: one set of fresh processes, " +
      'the independent samples; a standalone round is one). A method says ' +
      '*met* or *missed* when its whole interval is on one side of the target, *unsettled* when it straddles it ' +
      'or rests on fewer than 3 ratios or 2 blocks (_one block_: then it does not count for the agreement either). ' +
      'The methods *agree* when no two of them are further apart than their spread allows: the gap between two ' +
      "methods' values in standard errors of that gap (each 90% half-width facing the other is 1.645 standard " +
      "errors), shown as the agree column's largest |z|, on each target, and the lean of each pair of methods over " +
      "all the run's scenarios (Stouffer's Σz/√n, below the table: a shared offset grows it, scattered noise does " +
      `not). This run makes ${agreement?.checks ?? 'n/a'} such comparisons; each may reach |z| ${limit}, so that a ` +
      `run whose methods measure the same thing is called in disagreement anywhere at most ${AGREEMENT_ALPHA * 100}% ` +
      "of the time (Bonferroni). The verdict is the paired method's (the standalone one's without a paired " +
      'phase) and stands only when the methods agree. ' +
      "The co-run's CPU ratio is shown beside the CPU targets but set _aside_: a target is about one server on " +
      'a core, and in a co-run each server shares the core and its caches with another busy process, which costs ' +
      'the larger working set more (the co-run rows of the user/system table below, against the paired ones).',
    '',
  );
  const cell = (r) =>
    r
      ? `${interval(r)} ${r.verdict}${r.blocks !== undefined && r.blocks < MIN_BLOCKS ? ' (one block)' : ''}` +
        (r.aside ? ' (shared core, aside)' : '')
      : 'n/a';
  const agreeCell = (x) => {
    if (x.agree === undefined) return 'n/a';
    const widest = Math.max(...x.gaps.map((g) => Math.abs(g.z)));
    const why = x.leans
      ? `; ${x.leans.map((l) => l.between.map((m) => NAMES[m]).join(' − ')).join(', ')} lean`
      : '';
    return `${x.agree ? 'yes' : '**no**'} (${widest.toFixed(1)}${why})`;
  };
  L.push(
    '| scenario | target | standalone | paired | co-run | agree (largest \\|z\\|) | verdict |',
    '|---|---|---:|---:|---:|---|---|',
  );
  for (const sc of scenarios) {
    const t = byScenario[sc.name];
    if (!t) continue;
    for (const [label, x] of [
      ['req/s ×Fastify ≥ 1.10', t.rps],
      [`CPU ×raw ≤ ${t.cpu.limit.toFixed(2)}`, t.cpu],
    ]) {
      L.push(
        `| ${sc.name} | ${label} | ${cell(x.methods.standalone)} | ${cell(x.methods.paired)} | ` +
          `${cell(x.methods.corun)} | ${agreeCell(x)} | **${x.verdict}** |`,
      );
    }
  }
  L.push('');
  if (agreement?.leans.length > 0) {
    L.push(
      `Leans over the scenarios (Σz/√n of the signed gaps, first method minus second; limit ±${limit}):`,
      '',
      ...agreement.leans.map(
        (l) =>
          `- ${KIND_NAMES[l.kind]}, ${l.between.map((m) => NAMES[m]).join(' − ')}: ${z1(l.z)} over ${l.n} scenarios` +
          (l.apart ? ' — **apart**: the verdicts of these targets are withheld' : ''),
      ),
      '',
    );
  }
  return L;
}
