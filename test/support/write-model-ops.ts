import { COVID_DISEASE } from '@app/diseases';
import {
  ModelState,
  Values,
  applyRevert,
  keyOf,
  ordered,
  planRevert,
  postAnswer,
  prune,
  put,
  remove,
  restore,
  upsert,
  write,
} from './write-model';
import {
  Model,
  Spec,
  keyFor,
  lastValues,
  newKey,
  recordId,
  respell,
  sample,
  shapeRows,
  short,
} from './write-model-specs';
import { Observation, Real, http, importRows } from './write-model-system';

/*
 * Each generated write resolved against the model (`resolve`): done on the system, then played on
 * the model as the service's answer says it went.
 */

/** One write resolved against the model: done on the system, then played on the model. */
export interface Op {
  text: string;
  /** Records whose history is compared afterwards. */
  touched: number[];
  /** Keys whose records' histories are compared afterwards (records a batch creates, too). */
  touchedKeys?: string[];
  delayMs?: number;
  run(real: Real): Promise<Observation>;
  /** Plays the write on `s` as the observation says it went; what does not match, if anything. */
  apply(s: ModelState, step: number, obs: Observation): string | undefined;
}

/** The keys a batch names more than once. */
function keysNamedTwice(rows: Values[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const key of rows.map(keyOf)) (seen.has(key) ? twice : seen).add(key);
  return [...twice];
}

const statusMismatch = (text: string, expected: number, obs: Observation) =>
  obs.status === expected
    ? undefined
    : `${text}: expected ${expected}, got ${obs.status} ${JSON.stringify(obs.body ?? obs.error)}`;

export function importApply(rows: Values[]): Op['apply'] {
  return (s, step, obs) => {
    const counts = upsert(s, 'import', step, rows);
    if (obs.error) return `import of ${rows.length} rows failed: ${obs.error}`;
    return JSON.stringify(obs.counts) !== JSON.stringify(counts)
      ? `import of ${rows.length} rows: expected ${JSON.stringify(counts)}, got ${JSON.stringify(obs.counts)}`
      : undefined;
  };
}

/** Resolves a generated command against the model as it is now. */
export function resolve(m: Model, spec: Spec): Op {
  switch (spec.t) {
    case 'post': {
      const values = respell(ordered({ ...keyFor(m, spec.key), ...spec.figures }), spec.spelling);
      let created: number | undefined;
      return {
        text: `${spec.client} POST ${short(values)}`,
        get touched() {
          return created ? [created] : [];
        },
        run: (real) => http(real, spec.client, 'post', '', values),
        apply: (s, step, obs) => {
          const expected = postAnswer(s, values);
          const wrong = statusMismatch(`POST ${keyOf(values)}`, expected.status, obs);
          if (wrong || obs.status !== 201) return wrong;
          created = (obs.body as { id: number }).id;
          if (s.revisions.has(created))
            return `POST ${keyOf(values)}: new id ${created} was an older record's`;
          write(s, created, values, spec.client, step);
          return undefined;
        },
      };
    }
    case 'put': {
      const id = recordId(m, spec.pick);
      const last = lastValues(m, id);
      const key = spec.move ? keyFor(m, spec.move) : (last ?? newKey(0));
      const values = respell(
        spec.same && last ? last : ordered({ ...key, ...spec.figures }),
        spec.spelling,
      );
      return {
        text: `${spec.client} PUT ${id} ${short(values)}`,
        touched: [id],
        run: (real) => http(real, spec.client, 'put', `/${id}`, values),
        apply: (s, step, obs) =>
          statusMismatch(`PUT ${id}`, put(s, spec.client, step, id, values).status, obs),
      };
    }
    case 'delete': {
      const id = recordId(m, spec.pick);
      return {
        text: `${spec.client} DELETE ${id}`,
        touched: [id],
        run: (real) => http(real, spec.client, 'delete', `/${id}`),
        apply: (s, step, obs) =>
          statusMismatch(`DELETE ${id}`, remove(s, spec.client, step, id).status, obs),
      };
    }
    case 'bulk': {
      const rows = shapeRows(m, { ...spec.shape, whole: false });
      const ids = rows.map((r) => m.state.keys.get(keyOf(r)));
      return {
        text: `${spec.client} bulk of ${rows.length} rows (${spec.shape.scattered ? 'scattered' : 'contiguous'})`,
        touched: sample(ids.filter((x): x is number => typeof x === 'number')),
        touchedKeys: keysNamedTwice(rows),
        run: (real) => http(real, spec.client, 'post', '/bulk', rows),
        apply: (s, step, obs) => {
          const counts = upsert(s, spec.client, step, rows);
          const wrong = statusMismatch(`bulk of ${rows.length}`, 200, obs);
          if (wrong) return wrong;
          const body = obs.body as { success: boolean; inserted: number; updated: number };
          return body.success &&
            body.inserted === counts.inserted &&
            body.inserted + body.updated === rows.length
            ? undefined
            : `bulk of ${rows.length}: expected ${counts.inserted} inserted of ${rows.length}, got ${short(body)}`;
        },
      };
    }
    case 'import': {
      const rows = shapeRows(m, spec.shape);
      return {
        text: `import of ${rows.length} rows (${spec.shape.count} revised, ${spec.shape.scattered ? 'scattered' : 'contiguous'})`,
        touched: [],
        touchedKeys: keysNamedTwice(rows),
        run: (real) => importRows(real, rows),
        apply: importApply(rows),
      };
    }
    case 'restore': {
      const id = recordId(m, spec.pick);
      return {
        text: `restore ${id}${spec.revision === undefined ? '' : ` --revision ${spec.revision}`}`,
        touched: [id],
        run: async (real) => {
          try {
            return { restored: await real.history.restore(COVID_DISEASE, id, spec.revision) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
        apply: (s, step, obs) => {
          const expected = restore(s, step, id, spec.revision);
          const got = obs.error ? `error: ${obs.error}` : short(obs.restored!);
          if ('error' in expected) {
            const clash = /same country and date/.test(obs.error ?? '');
            return obs.error && (expected.error === 'clash') === clash
              ? undefined
              : `restore ${id}: expected refusal (${expected.error}), got ${got}`;
          }
          return obs.restored && short(obs.restored) === short(expected)
            ? undefined
            : `restore ${id}: expected ${short(expected)}, got ${got}`;
        },
      };
    }
    case 'revert': {
      const mark = m.marks[Math.min(spec.since, m.marks.length - 1)];
      const mode = spec.dryRun ? ' --dry-run' : '';
      const actor = spec.upper ? spec.client.toUpperCase() : spec.client;
      const touched: number[] = [];
      return {
        text: `revert --actor ${actor} --since <mark after step ${mark.pos}>${mode}`,
        touched,
        run: async (real) => {
          try {
            const result = await real.history.revert(
              COVID_DISEASE,
              actor,
              Date.parse(mark.at),
              spec.dryRun,
            );
            const changed = result.steps
              .filter((x) => ['create', 'update', 'delete'].includes(x.outcome))
              .map((x) => x.recordId);
            return { changed: changed.sort((a, b) => a - b) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
        apply: (s, step, obs) => {
          const plan = planRevert(s, spec.client, mark.pos, new Set(obs.changed ?? []));
          const expected = [...plan.changes.keys()].sort((a, b) => a - b);
          touched.push(
            ...sample([...expected, ...plan.blocked, ...plan.unprovable, ...plan.changedByOthers]),
          );
          const why = () =>
            `expected changes to ${short(expected)} (blocked ${short([...plan.blocked])}, ` +
            `unprovable ${short([...plan.unprovable])}, changed by others ${short([...plan.changedByOthers])}), `;
          if (obs.error) return `revert ${spec.client}${mode}: ${why()}got error: ${obs.error}`;
          // A dry run says exactly what the run would do; clashes are left alone one by one.
          if (short(obs.changed ?? []) !== short(expected)) {
            return `revert ${spec.client}${mode}: ${why()}got ${short(obs.changed ?? [])}`;
          }
          if (!spec.dryRun) applyRevert(s, spec.client, step, plan);
          return undefined;
        },
      };
    }
    case 'prune': {
      const mark = m.marks[Math.max(m.marks.length - 1 - spec.before, 0)];
      const mode = spec.dryRun ? ' --dry-run' : '';
      return {
        text: `prune-history --before <mark after step ${mark.pos}>${mode}`,
        touched: [],
        run: async (real) => {
          try {
            const counts = await real.history.prune(
              COVID_DISEASE,
              Date.parse(mark.at),
              spec.dryRun,
            );
            return { removed: counts.revisions };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
        apply: (s, _step, obs) => {
          const removed = prune(s, mark, spec.dryRun);
          return obs.removed === removed
            ? undefined
            : `prune-history${mode}: expected ${removed} revision(s) removed, got ${obs.removed ?? obs.error}`;
        },
      };
    }
  }
}
