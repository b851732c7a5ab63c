// An analysis worker module that never finishes (tests of the analysis pool's time budget).
export default function spinForever(): never {
  for (;;) {
    // burns its thread until the pool terminates it
  }
}
