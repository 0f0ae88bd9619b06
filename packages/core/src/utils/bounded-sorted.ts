/**
 * Keeps the `capacity` smallest items seen (by `compare`) in bounded memory, whatever order
 * they arrive in: a max-heap whose top is the largest item kept.
 */
export class BoundedSorted<T> {
  private readonly heap: T[] = [];
  private seen = 0;

  constructor(
    private readonly capacity: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** How many items were offered in all. */
  get total(): number {
    return this.seen;
  }

  add(item: T): void {
    this.seen++;
    if (this.capacity <= 0) return;
    if (this.heap.length < this.capacity) {
      this.heap.push(item);
      this.siftUp(this.heap.length - 1);
    } else if (this.compare(item, this.heap[0]!) < 0) {
      this.heap[0] = item;
      this.siftDown(0);
    }
  }

  /** Counts an item `wouldKeep` turned down, without building it. */
  skip(): void {
    this.seen++;
  }

  /** Whether `add(item)` would keep the item (until something smaller arrives). */
  wouldKeep(item: T): boolean {
    return this.heap.length < this.capacity || this.compare(item, this.heap[0]!) < 0;
  }

  /** The kept items, smallest first. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.compare(this.heap[child]!, this.heap[parent]!) <= 0) return;
      this.swap(child, parent);
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let largest = parent;
      if (left < this.heap.length && this.compare(this.heap[left]!, this.heap[largest]!) > 0)
        largest = left;
      if (right < this.heap.length && this.compare(this.heap[right]!, this.heap[largest]!) > 0)
        largest = right;
      if (largest === parent) return;
      this.swap(parent, largest);
      parent = largest;
    }
  }

  private swap(a: number, b: number): void {
    const item = this.heap[a]!;
    this.heap[a] = this.heap[b]!;
    this.heap[b] = item;
  }
}
