// Analysis scenarios: the questions (typed boolean or text), instructions, engine and model a
// workspace analyses transcripts with, and whether it runs by itself on new transcripts.
import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { AnalysisOptions as OptionsSchema } from './analysis-card.ts';
import { RetrySettings as RetrySchema, SelectionSchema, type RetrySettings } from '../../core/scenarios/scenario-card.ts';
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import type { AnalysisScenariosTable } from '../../platform/db/tables.ts';
import { analysisEngine, type AnalysisEngineName } from '../../engines/analysis/registry.ts';
import { invalid } from '../../errors.ts';
import { checkEngineAddress, checkSelection, scenarioName, type Selection } from '../../core/scenarios/selection.ts';
import { defaultRetry, emptySelection } from '../../core/scenarios/defaults.ts';
import type { RowWindow } from '../../core/cursor.ts';
import { deleteScenario, getScenario, listScenarios, saveScenario, updateScenario, type ScenarioKind } from '../../core/scenarios/scenario-store.ts';
import { StoredQuestions, type Question } from '../../core/analyses/questions.ts';

export type AnalysisOptions = Static<typeof OptionsSchema>;

export interface AnalysisScenario {
  id: string;
  name: string;
  engine: AnalysisEngineName;
  model: string;
  instructions: string;
  questions: Question[];
  summary: boolean;
  auto: boolean;
  retry: RetrySettings;
  selection: Selection;
  options: AnalysisOptions;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface AnalysisScenarioInput {
  name?: string | undefined;
  engine?: string | undefined;
  model?: string | undefined;
  instructions?: string | undefined;
  questions?: (Omit<Question, 'id'> & { id?: string | undefined })[] | undefined;
  summary?: boolean | undefined;
  auto?: boolean | undefined;
  retry?: Partial<RetrySettings> | undefined;
  selection?: Partial<Selection> | undefined;
  options?: AnalysisOptions | undefined;
}

type Row = Selectable<AnalysisScenariosTable>;

export function toAnalysisScenario(row: Row): AnalysisScenario {
  return {
    id: row.id,
    name: row.name,
    engine: row.engine as AnalysisEngineName,
    model: row.model,
    instructions: row.instructions,
    questions: readStored(StoredQuestions, row.questions, `analysis scenario ${row.id} questions`),
    summary: row.summary,
    auto: row.auto,
    retry: readStored(RetrySchema, row.retry, `analysis scenario ${row.id} retry`),
    selection: readStored(SelectionSchema, row.selection, `analysis scenario ${row.id} selection`),
    options: readStored(OptionsSchema, row.options, `analysis scenario ${row.id} options`),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function checkQuestions(input: NonNullable<AnalysisScenarioInput['questions']>): Question[] {
  const seen = new Set<string>();
  return input.map((question, index) => {
    const id = question.id ?? `q${index + 1}`;
    if (seen.has(id)) throw invalid(`questions/${index}/id`, `duplicates the id "${id}"`);
    seen.add(id);
    const text = question.text.trim();
    if (!text) throw invalid(`questions/${index}/text`, 'must not be blank');
    if (question.phrases && question.type !== 'boolean') throw invalid(`questions/${index}/phrases`, 'phrases answer boolean questions only');
    const phrases = question.phrases?.map((phrase) => phrase.trim());
    phrases?.forEach((phrase, p) => {
      if (!/[\p{L}\p{N}]/u.test(phrase)) throw invalid(`questions/${index}/phrases/${p}`, 'must contain a word');
    });
    if (question.examples && question.type !== 'boolean') throw invalid(`questions/${index}/examples`, 'examples are sentences that mean yes: boolean questions only');
    const examples = question.examples?.map((example) => example.trim());
    examples?.forEach((example, e) => {
      if (!/[\p{L}\p{N}]/u.test(example)) throw invalid(`questions/${index}/examples/${e}`, 'must contain a word');
    });
    return {
      id,
      text,
      type: question.type,
      ...(question.speaker !== undefined ? { speaker: question.speaker.trim() } : {}),
      ...(question.within_seconds !== undefined ? { within_seconds: question.within_seconds } : {}),
      ...(phrases ? { phrases } : {}),
      ...(examples ? { examples } : {}),
    };
  });
}

async function resolve(ctx: Context, input: AnalysisScenarioInput, current?: AnalysisScenario) {
  const engine = (input.engine ?? current?.engine ?? 'basic') as AnalysisEngineName;
  const described = analysisEngine(engine);
  const engineChanged = current !== undefined && input.engine !== undefined && input.engine !== current.engine;
  const model = input.model ?? (engineChanged || !current ? described.defaultModel : current.model);
  await described.checkModel(ctx.config, model);
  const options = { ...current?.options, ...input.options };
  await checkEngineAddress(ctx.config, { name: engine, remote: described.remote }, options.base_url ?? undefined);
  return {
    name: scenarioName(input.name, current?.name ?? 'Analysis'),
    engine,
    model,
    instructions: input.instructions ?? current?.instructions ?? '',
    questions: input.questions ? checkQuestions(input.questions) : (current?.questions ?? []),
    summary: input.summary ?? current?.summary ?? true,
    auto: input.auto ?? current?.auto ?? false,
    retry: { ...defaultRetry, ...current?.retry, ...input.retry },
    selection: checkSelection(ctx, { ...emptySelection, ...current?.selection, ...input.selection }),
    options,
  };
}

function columns(values: Awaited<ReturnType<typeof resolve>>) {
  return {
    ...values,
    questions: JSON.stringify(values.questions),
    retry: JSON.stringify(values.retry),
    selection: JSON.stringify(values.selection),
    options: JSON.stringify(values.options),
  };
}

export const analysisScenarios: ScenarioKind<AnalysisScenario> = {
  table: 'analysis_scenarios',
  idKind: 'analysisScenario',
  noun: 'analysis scenario',
  fromRow: toAnalysisScenario,
};

export async function createAnalysisScenario(ctx: Context, workspaceId: string, input: AnalysisScenarioInput): Promise<AnalysisScenario> {
  return saveScenario(ctx, analysisScenarios, workspaceId, columns(await resolve(ctx, input)));
}

export const getAnalysisScenario = (db: Db | Trx, workspaceId: string, id: string): Promise<AnalysisScenario> => getScenario(db, analysisScenarios, workspaceId, id);

export const listAnalysisScenarios = (ctx: Context, workspaceId: string, window?: RowWindow): Promise<AnalysisScenario[]> => listScenarios(ctx.db, analysisScenarios, workspaceId, window);

/** Applies a change; with `version` (the one the client read) only while the scenario is still at it. */
export const updateAnalysisScenario = (ctx: Context, workspaceId: string, id: string, input: AnalysisScenarioInput & { version?: number | undefined }): Promise<AnalysisScenario> =>
  updateScenario(ctx, analysisScenarios, workspaceId, id, input, async (change: AnalysisScenarioInput, current) => columns(await resolve(ctx, change, current)));

export const deleteAnalysisScenario = (ctx: Context, workspaceId: string, id: string): Promise<void> => deleteScenario(ctx, analysisScenarios, workspaceId, id);
