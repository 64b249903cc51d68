/**
 * Runs a forked effect to its end under TestClock. One `TestClock.adjust` can run before a forked
 * fiber has scheduled its sleep (when it waits on something else first, such as a cache store), and
 * that sleep would then never fire: advancing in small steps until the fiber is done cannot miss it.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/testing/TestClock"

export const settle = <A, E>(fiber: Fiber.Fiber<A, E>, step: Duration.Input = "10 millis") =>
  Effect.gen(function*() {
    while (fiber.pollUnsafe() === undefined) yield* TestClock.adjust(step)
    return yield* Fiber.join(fiber)
  })
