import {
  frame,
  neutralizeMarkers,
  TOOL_OUTPUT_SAMPLE_BEGIN,
  TOOL_OUTPUT_SAMPLE_END,
} from './untrusted-frame.js';
import { utf8ByteLength, utf8Prefix, utf8Suffix } from './utf8.js';

/** The most UTF-8 bytes of text one tool result may hand the model. */
export const TOOL_OUTPUT_TEXT_BUDGET_BYTES = 256 * 1024;
/** The most bytes of image data one tool result may hand the model. */
export const TOOL_OUTPUT_IMAGE_BUDGET_BYTES = 5 * 1024 * 1024;
/** The share of the kept sample taken from the start of the text; the rest comes from its end. */
export const TOOL_OUTPUT_HEAD_SHARE = 0.6;

/** One block of a tool result. */
export type ToolOutputBlock =
  | {
      /** Text. */
      type: 'text';
      /** The text. */
      text: string;
    }
  | {
      /** An image. */
      type: 'image';
      /** Base64 image data. */
      data: string;
      /** The image's media type. */
      mimeType: string;
    };

/** Where the guard saves original blocks before it shortens a result. */
export interface ArtifactSink {
  /** Saves one block and resolves with the path it was saved at. */
  save(entry: { runId: string; toolName: string; index: number; block: ToolOutputBlock }): Promise<string>;
}

/** Options of {@link guardToolOutput}. */
export interface GuardOptions {
  /** The run the result belongs to (names the artifact directory). */
  runId: string;
  /** The tool that produced it. */
  toolName: string;
  /** Where originals go; without one, the notice says persistence is unavailable. */
  sink?: ArtifactSink;
}

/** The guarded result. */
export interface GuardedOutput {
  /** The blocks to hand the model. */
  blocks: ToolOutputBlock[];
  /** Whether anything was shortened or replaced. */
  truncated: boolean;
  /** Paths of the saved originals, in block order. */
  savedPaths: string[];
  /** Why saving failed, when it did (the call itself still succeeds). */
  persistenceError?: string;
}

function blockBytes(block: ToolOutputBlock): number {
  return block.type === 'text' ? utf8ByteLength(block.text) : Math.floor((block.data.length * 3) / 4);
}

async function persist(blocks: readonly ToolOutputBlock[], options: GuardOptions) {
  if (options.sink === undefined)
    return { savedPaths: [], persistenceError: 'no artifact sink is configured' };
  const savedPaths: string[] = [];
  try {
    for (const [index, block] of blocks.entries()) {
      savedPaths.push(
        await options.sink.save({ runId: options.runId, toolName: options.toolName, index, block }),
      );
    }
    return { savedPaths };
  } catch (error) {
    return { savedPaths, persistenceError: (error as Error)?.message ?? String(error) };
  }
}

function persistenceNotice(savedPaths: readonly string[], persistenceError: string | undefined): string {
  if (persistenceError !== undefined)
    return `The full output could not be saved (persistence unavailable: ${persistenceError}).`;
  return `The full output was saved to: ${savedPaths.join(', ')}`;
}

/** The line that stands in the sample for the omitted middle. */
export const TOOL_OUTPUT_OMISSION_SEPARATOR = '[… middle omitted …]';

/** Rounds of proportional cutting back before each round also drops the whole excess; each costs a scan. */
const SAMPLE_FIT_ROUNDS = 16;

/**
 * The 60/40 head and tail of `text` joined by {@link TOOL_OUTPUT_OMISSION_SEPARATOR}, neutralized,
 * in at most `sampleBytes` UTF-8 bytes. Neutralizing lengthens text that holds markers, so the
 * sample is measured after the separator is in and every marker (including one the join itself
 * would spell) is rewritten, and both parts are cut back until it fits: the tail always ends where
 * the text ends, so the last lines of the output (a continuation hint) are never the ones lost.
 */
function sampleOf(text: string, textBytes: number, sampleBytes: number): { sample: string; omitted: number } {
  const separatorBytes = utf8ByteLength(TOOL_OUTPUT_OMISSION_SEPARATOR) + 2;
  let room = Math.max(0, sampleBytes - separatorBytes);
  for (let round = 0; ; round += 1) {
    const rawHead = utf8Prefix(text, Math.floor(room * TOOL_OUTPUT_HEAD_SHARE));
    const rawTail = utf8Suffix(text, room - utf8ByteLength(rawHead));
    const sample = neutralizeMarkers(
      `${neutralizeMarkers(rawHead)}\n${TOOL_OUTPUT_OMISSION_SEPARATOR}\n${neutralizeMarkers(rawTail)}`,
    );
    const excess = utf8ByteLength(sample) - sampleBytes;
    if (excess <= 0 || room === 0) {
      return {
        sample: excess <= 0 ? sample : '',
        omitted: textBytes - utf8ByteLength(rawHead) - utf8ByteLength(rawTail),
      };
    }
    // Neutralized text grows in proportion to the markers it holds, so the room shrinks in the
    // proportion the sample overshot; later rounds shrink harder so text of any shape ends.
    const scaled = Math.floor((room * sampleBytes) / (sampleBytes + excess));
    room = Math.max(0, Math.min(room - (round < SAMPLE_FIT_ROUNDS ? 1 : excess), scaled));
  }
}

/**
 * Keeps a tool result within budget. Text over {@link TOOL_OUTPUT_TEXT_BUDGET_BYTES} becomes a
 * UTF-8-safe sample — 60 % from the start, 40 % from the end — inside a new, balanced untrusted frame,
 * with a notice that the middle was omitted. Images have their own, larger budget. Results mixing
 * text and images, or oversized images, fall back to a summary. Every original block is first offered
 * to the artifact sink; a missing or failing sink is reported, never thrown.
 */
export async function guardToolOutput(
  blocks: readonly ToolOutputBlock[],
  options: GuardOptions,
): Promise<GuardedOutput> {
  const textBytes = blocks
    .filter((block) => block.type === 'text')
    .reduce((sum, block) => sum + blockBytes(block), 0);
  const imageBytes = blocks
    .filter((block) => block.type === 'image')
    .reduce((sum, block) => sum + blockBytes(block), 0);
  if (textBytes <= TOOL_OUTPUT_TEXT_BUDGET_BYTES && imageBytes <= TOOL_OUTPUT_IMAGE_BUDGET_BYTES) {
    return { blocks: [...blocks], truncated: false, savedPaths: [] };
  }
  const saved = await persist(blocks, options);
  const notice = persistenceNotice(saved.savedPaths, saved.persistenceError);
  const onlyText = blocks.every((block) => block.type === 'text');
  if (!onlyText) {
    const summary = blocks
      .map(
        (block, index) =>
          `block ${index + 1}: ${block.type === 'text' ? 'text' : block.mimeType}, ${blockBytes(block)} bytes`,
      )
      .join('; ');
    return {
      blocks: [
        { type: 'text', text: `[${options.toolName} returned more than fits: ${summary}. ${notice}]` },
      ],
      truncated: true,
      ...saved,
    };
  }
  const text = blocks.map((block) => (block as { text: string }).text).join('\n');
  const omittedNotice = (omitted: number) =>
    `[${options.toolName} output was ${textBytes} bytes; ${omitted} bytes from the middle were omitted, so the end shown here is not necessarily where the source ends. ${notice}]`;
  // The notice (with its longest count), the frame markers and the line breaks between them count
  // against the budget too; the separator is counted inside the sample.
  const overhead =
    utf8ByteLength(omittedNotice(textBytes)) +
    utf8ByteLength(TOOL_OUTPUT_SAMPLE_BEGIN) +
    utf8ByteLength(TOOL_OUTPUT_SAMPLE_END) +
    3;
  const { sample, omitted } = sampleOf(
    text,
    textBytes,
    Math.max(0, TOOL_OUTPUT_TEXT_BUDGET_BYTES - overhead),
  );
  return {
    blocks: [
      {
        type: 'text',
        text: `${omittedNotice(omitted)}\n${frame(TOOL_OUTPUT_SAMPLE_BEGIN, TOOL_OUTPUT_SAMPLE_END, sample)}`,
      },
    ],
    truncated: true,
    ...saved,
  };
}
