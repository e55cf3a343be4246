/**
 * A value computed on first use and kept. Family environments use it for the exact distance
 * tables behind `progress()`: a world opened only to simulate calls (an adaptive sightless
 * agent's candidates, issue 35) never asks for progress, and building the table on open cost
 * P1 and P2 most of the time of opening a world.
 */
export function lazy<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
