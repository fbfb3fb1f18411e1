import { useState, type ReactNode } from 'react';
import { Modal } from '@mantine/core';
import { SecretOnce } from './secret-once';

interface CreateWithSecretProps {
  opened: boolean;
  close(): void;
  title: string;
  secretLabel: string;
  secretWarning: string;
  /** After the secret was shown and the dialog closed: usually opens the new item's screen. */
  onDone(id: number): void;
  /** The creation form; it calls `created` with the server's answer, which holds the secret this once. */
  children(created: (item: { id: number; secret: string }) => void): ReactNode;
}

/** A dialog that creates an item whose secret the server shows only in that answer, then shows it once. */
export function CreateWithSecret({ opened, close, title, secretLabel, secretWarning, onDone, children }: CreateWithSecretProps) {
  const [created, setCreated] = useState<{ id: number; secret: string } | null>(null);
  const finish = () => {
    const id = created?.id;
    setCreated(null);
    close();
    if (id !== undefined) onDone(id);
  };
  return (
    <Modal opened={opened} onClose={finish} title={title}>
      {created
        ? <SecretOnce secret={created.secret} label={secretLabel} warning={secretWarning} onClose={finish} />
        : children(setCreated)}
    </Modal>
  );
}
