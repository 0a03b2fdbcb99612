// Two message streams, each ordered by (createdAt, _id), as one stream in that order: the live
// record and the archive (BR-002). A message met in both (an archive move interrupted between
// copy and delete) comes out once.
export interface TimeKeyed {
  _id: string;
  createdAt: Date;
}

const before = (a: TimeKeyed, b: TimeKeyed) =>
  a.createdAt.getTime() < b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a._id <= b._id);

export async function* mergeByTime<T extends TimeKeyed>(a: AsyncIterable<T>, b: AsyncIterable<T>): AsyncGenerator<T> {
  const ia = a[Symbol.asyncIterator]();
  const ib = b[Symbol.asyncIterator]();
  try {
    let x = await ia.next();
    let y = await ib.next();
    let last: string | undefined;
    for (;;) {
      let next: T;
      if (!x.done && (y.done || before(x.value, y.value))) {
        next = x.value;
        x = await ia.next();
      } else if (!y.done) {
        next = y.value;
        y = await ib.next();
      } else break;
      if (next._id === last) continue;
      last = next._id;
      yield next;
    }
  } finally {
    // Stopped early (a cap, an error): close both cursors.
    await Promise.all([ia.return?.(), ib.return?.()]);
  }
}
