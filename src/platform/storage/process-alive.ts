// Whether a process of this host is running (signal 0: nothing is sent; EPERM means it runs as
// another user). Shared by the data-folder lock and the scratch folders of dead processes.
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
