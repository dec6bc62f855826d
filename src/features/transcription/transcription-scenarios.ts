// Transcription scenarios: which engine, model and language a workspace transcribes with, and
// whether the scenario runs by itself after preparation.
import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { RetrySettings as RetrySchema, SelectionSchema, type RetrySettings } from '../../core/scenarios/scenario-card.ts';
import { TranscriptionOptions as OptionsSchema, transcriptionOptionDefaults } from './transcription-card.ts';
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import { transcribableStatuses, type TranscriptionScenariosTable } from '../../platform/db/tables.ts';
import { checkLanguage, transcriptionEngine, type TranscriptionEngineName } from '../../engines/transcription/registry.ts';
import { invalid } from '../../errors.ts';
import { checkEngineAddress, checkSelection, scenarioName, type Selection } from '../../core/scenarios/selection.ts';
import { defaultRetry, emptySelection } from '../../core/scenarios/defaults.ts';
import type { RowWindow } from '../../core/cursor.ts';
import { deleteScenario, getScenario, listScenarios, saveScenario, updateScenario, type ScenarioKind } from '../../core/scenarios/scenario-store.ts';
import { checkSpotWords, checkVocabularyWords, vocabularyTerms } from './vocabulary.ts';

export type TranscriptionScenarioRow = Selectable<TranscriptionScenariosTable>;

export type TranscriptionOptions = Static<typeof OptionsSchema>;
export type { Selection };

export interface TranscriptionScenario {
  id: string;
  name: string;
  engine: TranscriptionEngineName;
  model: string;
  language: string;
  options: TranscriptionOptions;
  auto: boolean;
  retry: RetrySettings;
  selection: Selection;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface TranscriptionScenarioInput {
  name?: string | undefined;
  engine?: string | undefined;
  model?: string | undefined;
  language?: string | undefined;
  options?: Partial<TranscriptionOptions> | undefined;
  auto?: boolean | undefined;
  retry?: Partial<RetrySettings> | undefined;
  selection?: Partial<Selection> | undefined;
}

export function toScenario(row: TranscriptionScenarioRow): TranscriptionScenario {
  return {
    id: row.id,
    name: row.name,
    engine: row.engine as TranscriptionEngineName,
    model: row.model,
    language: row.language,
    options: { ...transcriptionOptionDefaults, ...readStored(OptionsSchema, row.options, `transcription scenario ${row.id} options`) },
    auto: row.auto,
    retry: readStored(RetrySchema, row.retry, `transcription scenario ${row.id} retry`),
    selection: readStored(SelectionSchema, row.selection, `transcription scenario ${row.id} selection`),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function resolve(ctx: Context, input: TranscriptionScenarioInput, current?: TranscriptionScenario) {
  const engine = (input.engine ?? current?.engine ?? 'pocketsphinx') as TranscriptionEngineName;
  const described = transcriptionEngine(engine);
  const engineChanged = current !== undefined && input.engine !== undefined && input.engine !== current.engine;
  const model = input.model ?? (engineChanged || !current ? described.defaultModel : current.model);
  const language = input.language ?? (engineChanged || !current ? described.defaultLanguage : current.language);
  checkLanguage(engine, language);
  await described.checkModel(ctx.config, model);
  const options: TranscriptionOptions = {
    ...transcriptionOptionDefaults,
    ...current?.options,
    ...input.options,
  };
  await checkEngineAddress(ctx.config, { name: engine, remote: described.remote }, options.base_url ?? undefined);
  if (options.redact_audio && !options.redact?.length) throw invalid('options/redact_audio', 'needs the kinds to redact in options.redact');
  if (options.keep_original_audio === false && !options.redact_audio) throw invalid('options/keep_original_audio', 'false only deletes the original once a redacted copy exists: set options.redact_audio to true');
  // Terms are checked when they are set, or when another engine is to say them: a scenario saved
  // before a rule was added keeps working, and can be renamed, until its terms are edited.
  const engineNew = current === undefined || engineChanged;
  if (engineNew || input.options?.vocabulary !== undefined) {
    checkVocabularyWords(options.vocabulary);
    await described.checkVocabulary(vocabularyTerms(options.vocabulary));
  }
  if (engineNew || input.options?.spot !== undefined) {
    checkSpotWords(options.spot);
    await described.checkSpot(options.spot ?? []);
  }
  return {
    name: scenarioName(input.name, current?.name ?? `${engine} ${model}`),
    engine,
    model,
    language,
    options,
    auto: input.auto ?? current?.auto ?? false,
    retry: { ...defaultRetry, ...current?.retry, ...input.retry },
    selection: startableSelection(checkSelection(ctx, { ...emptySelection, ...current?.selection, ...input.selection })),
  };
}

export const transcriptionScenarios: ScenarioKind<TranscriptionScenario> = {
  table: 'transcription_scenarios',
  idKind: 'transcriptionScenario',
  noun: 'transcription scenario',
  fromRow: toScenario,
};

function columns(values: Awaited<ReturnType<typeof resolve>>) {
  return { ...values, options: JSON.stringify(values.options), retry: JSON.stringify(values.retry), selection: JSON.stringify(values.selection) };
}

export async function createTranscriptionScenario(ctx: Context, workspaceId: string, input: TranscriptionScenarioInput): Promise<TranscriptionScenario> {
  return saveScenario(ctx, transcriptionScenarios, workspaceId, columns(await resolve(ctx, input)));
}

export const getTranscriptionScenario = (db: Db | Trx, workspaceId: string, id: string): Promise<TranscriptionScenario> => getScenario(db, transcriptionScenarios, workspaceId, id);

export const listTranscriptionScenarios = (ctx: Context, workspaceId: string, window?: RowWindow): Promise<TranscriptionScenario[]> => listScenarios(ctx.db, transcriptionScenarios, workspaceId, window);

/** Applies a change; with `version` (the one the client read) only while the scenario is still at it. */
export const updateTranscriptionScenario = (ctx: Context, workspaceId: string, id: string, input: TranscriptionScenarioInput & { version?: number | undefined }): Promise<TranscriptionScenario> =>
  updateScenario(ctx, transcriptionScenarios, workspaceId, id, input, async (change: TranscriptionScenarioInput, current) => columns(await resolve(ctx, change, current)));

export const deleteTranscriptionScenario = (ctx: Context, workspaceId: string, id: string): Promise<void> => deleteScenario(ctx, transcriptionScenarios, workspaceId, id);

/** A transcription selection names at least one status a run starts from: one that names none would find nothing, ever. */
function startableSelection(selection: Selection): Selection {
  if (selection.statuses.length > 0 && !selection.statuses.some((status) => (transcribableStatuses as readonly string[]).includes(status))) {
    throw invalid('selection/statuses', `names no status a transcription starts from: add one of ${transcribableStatuses.join(', ')} (calls that are ${selection.statuses.join(', ')} cannot be transcribed)`);
  }
  return selection;
}
