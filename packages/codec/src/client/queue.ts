/** A FIFO with cheap shifts and a front door for retries: the client's requests ready to send. */
export class Queue<T> {
  #items: T[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(x: T): void {
    this.#items.push(x);
  }
  pushFront(x: T): void {
    if (this.#head > 0) this.#items[--this.#head] = x;
    else this.#items.unshift(x);
  }
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const x = this.#items[this.#head]!;
    this.#items[this.#head++] = undefined as T;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return x;
  }
}
