// The fact detail and the delete dialog say whether deleting a fact also removes it from where
// it came from: an MCP memory file a watcher keeps in step, against facts of Statelens only.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { seedMemoryFile } from '../../test/e2e/helpers/seed-mcp-memory';
import { startRuntime } from '../../test/e2e/helpers/backend';
import { Root } from '../app/Root';
import { createAppRouter } from '../app/router';
import { transportFor } from '../test-utils/harness';

const runtime = startRuntime();
afterAll(() => runtime.close());

const FILE = '/srv/agents/memory.jsonl';
const GRAPH = [
  JSON.stringify({ type: 'entity', name: 'Ann_Lee', entityType: 'person', observations: ['Prefers morning meetings'] }),
  JSON.stringify({ type: 'entity', name: 'Bob', entityType: 'person', observations: ['Has a cat'] }),
].join('\n');

async function mount(watched: boolean, value: string) {
  const backend = await runtime.open((store) => {
    const { partitionId, idOf } = seedMemoryFile(store, GRAPH, FILE, watched);
    return { partitionId, factId: idOf[value] as string };
  });
  await act(async () => {
    render(
      <Root
        transport={transportFor(backend)}
        router={createAppRouter()}
        initial={{ partitionId: backend.seeded.partitionId, factId: backend.seeded.factId }}
      />,
    );
  });
  const panel = await screen.findByRole('complementary', { name: 'Fact detail' });
  return within(panel).findByTestId('source-deletion');
}

describe('where a deletion reaches', () => {
  it('says a fact from a watched memory file is deletable at its source, in the detail and the delete dialog', async () => {
    const reach = await mount(true, 'Prefers morning meetings');
    expect(reach.textContent).toBe(`deletable at source (file ${FILE}, kept in step by mcp-memory --watch)`);
    const article = reach.closest('article') as HTMLElement;
    fireEvent.click(within(article).getByRole('button', { name: /^Delete/ }));
    const note = await screen.findByTestId('delete-source-reach');
    expect(note.textContent).toBe(`This fact is deletable at source (file ${FILE}, kept in step by mcp-memory --watch).`);
  });

  it('says a fact of a file no watcher keeps is deleted in Statelens only', async () => {
    const reach = await mount(false, 'Has a cat');
    await waitFor(() => expect(reach.textContent).toBe('deleted in Statelens only'));
  });
});
