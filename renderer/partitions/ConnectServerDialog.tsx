// "Connect to server…": the memory on a shared PostgreSQL server instead of a file. The form is
// checked with the contract's own schema before it is sent; the password goes to main, which
// keeps it only encrypted by the system (or not at all, and says so).
import { useState, type FormEvent } from 'react';
import { DEFAULT_SERVER_SCHEMA, ServerConnectForm, serverScope, type ChannelOutput, type CredentialOutcome } from '../../shared/contract';
import { toErrorShape, type ErrorShape } from '../../shared/errors';
import { useMutation, useQuery } from '../api/hooks';
import type { ConnectPrefill } from '../app/state';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Checkbox, TextField } from '../ui/fields';
import { useToast } from '../ui/Toast';
import './connect.css';

type Field = 'url' | 'password' | 'schema' | 'org';
const FIELDS: readonly Field[] = ['url', 'password', 'schema', 'org'];

/** The contract's complaints about the form, one per field (the first). */
export function formProblems(form: { url: string; password: string; schema: string; org: string; remember: boolean }): Partial<Record<Field, string>> {
  const parsed = ServerConnectForm.safeParse({ ...form, password: form.password === '' ? undefined : form.password });
  const problems: Partial<Record<Field, string>> = {};
  if (parsed.success) return problems;
  // An empty required field reads better as such than as a length the schema counts.
  if (form.url.trim() === '') problems.url = 'the server URL is required';
  if (form.org.trim() === '') problems.org = 'the organisation is required';
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (FIELDS as readonly string[]).includes(field)) problems[field as Field] ??= issue.message;
  }
  return problems;
}

/** What the user is told about the password after connecting. */
export const CREDENTIAL_TEXT: Record<CredentialOutcome, string> = {
  kept: 'The password is kept, encrypted by the system.',
  'not-kept': 'No password is kept for this server.',
  'encryption-unavailable':
    'The password was not kept: this system offers no encryption for it, and it is never stored as plain text. You will be asked again.',
};

export function ConnectServerDialog({
  initial = null,
  onClose,
  onConnected,
}: {
  /** A recent server to connect to again (its password was not kept): only the password is asked. */
  initial?: ConnectPrefill | null;
  onClose: () => void;
  onConnected?: (result: ChannelOutput<'db.connect'>) => void;
}) {
  const info = useQuery('db.info', {});
  const browser = info.data?.mode === 'browser';
  const connect = useMutation('db.connect');
  const toast = useToast();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [password, setPassword] = useState('');
  const [schema, setSchema] = useState(initial?.schema ?? DEFAULT_SERVER_SCHEMA);
  const [org, setOrg] = useState(initial?.org ?? '');
  const [remember, setRemember] = useState(true);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<ErrorShape | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const form = { url, password, schema, org, remember };
    const found = formProblems(form);
    setProblems(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      document.querySelector<HTMLInputElement>(`[data-field="${FIELDS.find((f) => found[f]) ?? 'url'}"]`)?.focus();
      return;
    }
    try {
      const result = await connect.mutate({ source: 'form', url, schema, org, remember, ...(password === '' ? {} : { password }) });
      const where = result.state.db?.server ? `${serverScope(result.state.db.server)} on ${result.state.db.name}` : 'the server';
      toast(`Connected to ${where}. ${CREDENTIAL_TEXT[result.credential]}`, result.credential === 'encryption-unavailable' ? 'error' : 'info');
      onConnected?.(result);
      onClose();
    } catch (err) {
      setFailure(toErrorShape(err));
    }
  }

  const fieldProps = (field: Field) => ({
    'data-field': field,
    'aria-invalid': problems[field] ? true : undefined,
    'aria-describedby': problems[field] ? `connect-${field}-problem` : undefined,
  });
  const problem = (field: Field) =>
    problems[field] ? (
      <p id={`connect-${field}-problem`} className="connect-problem" data-testid={`problem-${field}`}>
        {problems[field]}
      </p>
    ) : null;

  return (
    <Dialog
      title="Connect to a memory server"
      onClose={onClose}
      footer={
        <>
          <span className="grow" />
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="connect-form" disabled={connect.pending}>
            {connect.pending ? 'Connecting…' : 'Connect'}
          </Button>
        </>
      }
    >
      <form id="connect-form" className="connect-form" onSubmit={(e) => void submit(e)} noValidate>
        {browser ? (
          <p className="connect-note" data-testid="connect-browser-note">
            This inspector is served by <code>statelens serve</code>, which shows the one database it was started with: it cannot switch to a server. Connect
            from the desktop app instead.
          </p>
        ) : (
          <p className="muted connect-intro">
            The memory a team shares on PostgreSQL, set up with <code>statelens init --db URL</code>.
          </p>
        )}
        <TextField
          label="Server URL"
          data-autofocus={initial ? undefined : true}
          placeholder="postgres://user@host:5432/db?sslmode=verify-full"
          autoComplete="off"
          spellCheck={false}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          {...fieldProps('url')}
        />
        {problem('url')}
        <TextField
          label="Password"
          type="password"
          data-autofocus={initial ? true : undefined}
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          {...fieldProps('password')}
        />
        {problem('password')}
        <div className="connect-row">
          <div className="connect-col">
            <TextField label="Schema" spellCheck={false} value={schema} onChange={(e) => setSchema(e.target.value)} {...fieldProps('schema')} />
            {problem('schema')}
          </div>
          <div className="connect-col">
            <TextField
              label="Organisation"
              placeholder="e.g. acme"
              spellCheck={false}
              value={org}
              onChange={(e) => setOrg(e.target.value)}
              {...fieldProps('org')}
            />
            {problem('org')}
          </div>
        </div>
        <Checkbox label="Remember the password (encrypted by the system; never stored as plain text)" checked={remember} onChange={setRemember} />
        {failure ? (
          <div className="connect-failure" role="alert" data-testid="connect-failure">
            <strong>Could not connect.</strong> {failure.message}
          </div>
        ) : null}
      </form>
    </Dialog>
  );
}
