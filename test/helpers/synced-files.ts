// Which files were fsynced, each by the name it had when it was synced: `FileHandle`'s sync and datasync
// and `fs.fsyncSync` are watched, and each descriptor's path is read from /proc/self/fd as it is synced
// (Linux). A temp file synced before its rename is listed by its temp name; synced after, by its new one.
import fs, { readlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

type Syncs = { sync(): Promise<void>; datasync(): Promise<void>; fd: number };

export interface SyncWatch {
  /** the paths synced, in order: `sync <path>` or `datasync <path>` */
  readonly synced: string[];
  stop(): void;
}

export async function watchSyncs(): Promise<SyncWatch> {
  const synced: string[] = [];
  const probe = await open('/dev/null', 'r');
  const proto = Object.getPrototypeOf(probe) as Syncs;
  await probe.close();
  const name = (fd: number) => readlinkSync(`/proc/self/fd/${fd}`);
  const { sync, datasync } = proto;
  const { fsyncSync } = fs;
  proto.sync = function (this: Syncs) {
    synced.push(`sync ${name(this.fd)}`);
    return sync.call(this);
  };
  proto.datasync = function (this: Syncs) {
    synced.push(`datasync ${name(this.fd)}`);
    return datasync.call(this);
  };
  fs.fsyncSync = (fd: number) => {
    synced.push(`sync ${name(fd)}`);
    fsyncSync(fd);
  };
  syncBuiltinESMExports();
  return {
    synced,
    stop() {
      proto.sync = sync;
      proto.datasync = datasync;
      fs.fsyncSync = fsyncSync;
      syncBuiltinESMExports();
    },
  };
}
