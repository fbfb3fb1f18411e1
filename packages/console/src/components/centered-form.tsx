import type { FormEvent, ReactNode } from 'react';
import { Center, Paper, Stack, Title } from '@mantine/core';

/** A page of one form outside the signed-in screens (sign-in, an invitation's password), its title its name. */
export function CenteredForm({ id, title, width, onSubmit, children }: { id: string; title: string; width: number; onSubmit(event: FormEvent): void; children: ReactNode }) {
  return (
    <Center mih="100vh" component="main" id="main">
      <Paper withBorder shadow="sm" p="xl" w={width} maw="95vw">
        <form onSubmit={onSubmit} aria-labelledby={id}>
          <Stack>
            <Title order={1} size="h2" id={id}>{title}</Title>
            {children}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
