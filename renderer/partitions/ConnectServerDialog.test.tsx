import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChannelOutput } from '../../shared/contract';
import { Root } from '../app/Root';
import type { Transport } from '../api/transport';
import { mountInspector, startSeeded, transportFor } from '../test-utils/harness';
import { formProblems } from './ConnectServerDialog';

const filled = { url: 'postgres://ana@db.example:5432/memory?sslmode=verify-full', password: 'pw', schema: 'statelens', org: 'acme', remember: true };

describe('the server form, checked by the contract', () => {
  it('names each field it refuses, and nothing for a good form', () => {
    expect(formProblems(filled)).toEqual({});
    expect(Object.keys(formProblems({ ...filled, url: '', org: '' })).sort()).toEqual(['org', 'url']);
    expect(formProblems({ ...filled, url: 'postgres://ana:secret@db.example/memory' }).url).toMatch(/password in its own field/);
    expect(formProblems({ ...filled, url: '/home/ana/memory.db' }).url).toBeTruthy();
    expect(formProblems({ ...filled, schema: 'Statelens-Prod' }).schema).toMatch(/lower-case/);
    expect(formProblems({ ...filled, org: 'a/b' }).org).toMatch(/"\/"/);
  });
});

async function openFromPalette() {
  fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
  const palette = await screen.findByRole('dialog', { name: 'Go to…' });
  fireEvent.change(within(palette).getByRole('combobox'), { target: { value: 'connect' } });
  fireEvent.click(await within(palette).findByRole('option', { name: /Connect to server/ }));
  return screen.findByRole('dialog', { name: 'Connect to a memory server' });
}

describe('Connect to server', () => {
  it('opens from the command palette, marks refused fields, and shows browser mode’s refusal', async () => {
    await mountInspector();
    await screen.findByRole('grid', { name: 'Memories' });
    const dialog = await openFromPalette();
    expect(within(dialog).getByTestId('connect-browser-note').textContent).toMatch(/cannot switch to a server/);
    expect((within(dialog).getByLabelText('Schema') as HTMLInputElement).value).toBe('statelens');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Server URL'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Server URL').getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByLabelText('Organisation').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText('Password').getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Server URL'), { target: { value: filled.url } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.change(within(dialog).getByLabelText('Organisation'), { target: { value: 'acme' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toMatch(/statelens serve.*cannot switch to a server/);
    expect(within(dialog).getByLabelText('Server URL').getAttribute('aria-invalid')).toBeNull();
  });

  it('on the desktop: sends the form, says what became of the password, and shows server, schema and org', async () => {
    const backend = await startSeeded();
    const real = transportFor(backend);
    const sent: unknown[] = [];
    let connected = false;
    const server = { url: filled.url, schema: 'statelens', org: 'acme' };
    // The desktop answers (the real desktop path runs in test/contract/connect-server.test.ts).
    const transport: Transport = {
      ...real,
      async call(channel, input) {
        const answer = await real.call(channel, input);
        if (channel === 'db.info' || channel === 'db.connect') {
          const state = answer as ChannelOutput<'db.info'>;
          const desktop = {
            ...state,
            mode: 'desktop' as const,
            canOpenOther: true,
            db: state.db && connected ? { ...state.db, name: 'memory on db.example:5432', server } : state.db,
          };
          return desktop as never;
        }
        return answer;
      },
    };
    const connectCall: Transport['call'] = async (channel, input) => {
      if (channel !== 'db.connect') return transport.call(channel, input);
      sent.push(input);
      connected = true;
      const state = await transport.call('db.info', {});
      return { state, credential: 'encryption-unavailable' } as never;
    };
    await act(async () => {
      render(<Root transport={{ ...transport, call: connectCall }} initial={{ partitionId: backend.seeded.mainPartition }} />);
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Connect to server…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to a memory server' });
    expect(within(dialog).queryByTestId('connect-browser-note')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Server URL'), { target: { value: filled.url } });
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.change(within(dialog).getByLabelText('Organisation'), { target: { value: 'acme' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Connect to a memory server' })).toBeNull());
    expect(sent).toEqual([{ source: 'form', url: filled.url, password: 'pw', schema: 'statelens', org: 'acme', remember: true }]);
    expect((await screen.findByText(/password was not kept: this system offers no encryption/)).textContent).toMatch(
      /Connected to schema statelens · org acme on /,
    );
    await waitFor(() => expect(screen.getByTestId('status-server').textContent).toBe('server memory on db.example:5432 · schema statelens · org acme'));
    expect(document.title).toBe('memory on db.example:5432 · schema statelens · org acme — Statelens');
  });
});

describe('a recent server whose password was not kept', () => {
  it('opens the form with server, schema and organisation filled in, asking only for the password', async () => {
    const backend = await startSeeded();
    const real = transportFor(backend);
    const calls: string[] = [];
    const recent = { index: 0, url: filled.url, schema: 'team_memory', org: 'globex', openedAt: '2026-01-01T00:00:00.000Z', hasPassword: false };
    const transport: Transport = {
      ...real,
      async call(channel, input) {
        calls.push(channel);
        if (channel === 'db.recentServers') return { servers: [recent] } as never;
        const answer = await real.call(channel, input);
        if (channel === 'db.info') return { ...(answer as ChannelOutput<'db.info'>), mode: 'desktop', canOpenOther: true } as never;
        return answer;
      },
    };
    await act(async () => {
      render(<Root transport={transport} initial={{ partitionId: backend.seeded.mainPartition }} />);
    });
    fireEvent.click(await screen.findByText('Recent servers'));
    fireEvent.click(await screen.findByRole('button', { name: /globex · team_memory \(no password kept\)/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect to a memory server' });
    expect((within(dialog).getByLabelText('Server URL') as HTMLInputElement).value).toBe(filled.url);
    expect((within(dialog).getByLabelText('Schema') as HTMLInputElement).value).toBe('team_memory');
    expect((within(dialog).getByLabelText('Organisation') as HTMLInputElement).value).toBe('globex');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Password'));
    expect(calls).not.toContain('db.connect');
  });
});
