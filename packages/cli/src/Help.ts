/**
 * What `s2` prints for `--help`, `--version`, a missing command and a command line it cannot parse.
 * `effect/cli` parses the command line and hands each of these to a `CliOutput.Presenter` with the
 * help document of the command; `s2`'s presenter ({@link presenter}) writes them its own way: `s2`
 * usage lines, the command's own flags first and then those every command takes, plain text into a
 * pipe, wrapped to 100 columns, and parse errors as one `s2: …` line that names the flag.
 *
 * @since 1.0.0
 */
import { excerpt } from "@s2-effect/core"
import type * as CliError from "effect/cli/CliError"
import type * as CliOutput from "effect/cli/CliOutput"
import type * as Command from "effect/cli/Command"
import type * as HelpDoc from "effect/cli/HelpDoc"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Service as PrinterService } from "./Printer.js"
import { visible } from "./render/Escape.js"

/** Help is wrapped to the width of a common terminal. */
const width = 100

/**
 * Whether `s2` writes colour and bold to a stream: not when `NO_COLOR` is set and non-empty
 * (https://no-color.org, whatever else is set), always when `FORCE_COLOR` is set but `0` or `false`
 * (as Node's own streams read it), else only on a terminal.
 *
 * @since 1.0.0
 */
export const colors = (
  isTTY: boolean,
  env: Readonly<Record<string, string | undefined>> = process.env
): boolean => {
  if ((env["NO_COLOR"] ?? "") !== "") return false
  const force = env["FORCE_COLOR"]
  if (force !== undefined) return force !== "0" && force !== "false"
  return isTTY
}

/**
 * `text` in bold when `ansi` (see {@link colors}).
 *
 * @since 1.0.0
 */
export const bold = (text: string, ansi: boolean): string => ansi ? `\x1b[1m${text}\x1b[0m` : text

/** Words of `text` in lines of at most `width - indent` characters (a longer word stands alone). */
const wrap = (text: string, indent: number): Array<string> =>
  text.split(" ").reduce<Array<string>>((acc, word) => {
    const last = acc[acc.length - 1]
    if (last !== undefined && last.length + 1 + word.length <= width - indent) acc[acc.length - 1] = `${last} ${word}`
    else acc.push(word)
    return acc
  }, [])

const paragraph = (text: string, indent: number): Array<string> =>
  wrap(text, indent).map((line) => " ".repeat(indent) + line)

/** A section: a bold title and its lines. */
const section = (title: string, body: ReadonlyArray<string>, ansi: boolean): Array<string> =>
  body.length === 0 ? [] : ["", bold(title, ansi), ...body]

/** A term (bold on a terminal) and its description, indented under it. */
const entry = (term: string, description: string, ansi: boolean): Array<string> => [
  ...wrap(term, 4).map((line, i) => `  ${i === 0 ? bold(line, ansi) : `  ${line}`}`),
  ...paragraph(description, 6)
]

/** The framework appends a choice flag's choices to its description. */
const choicesSuffix = / \(choices: (.*)\)$/

/**
 * A flag's term and description: `--max integer`; a choice flag with a few short choices shows them
 * in place of its type (`--format json|jsonl|table|csv`) rather than after its description.
 */
const flagEntry = (flag: HelpDoc.FlagDoc): readonly [term: string, description: string] => {
  const names = [...flag.aliases, `--${flag.name}`].join(", ")
  const description = Option.getOrElse(flag.description, () => "")
  const choices = flag.type === "choice" ? choicesSuffix.exec(description)?.[1]?.split(", ").join("|") : undefined
  if (choices !== undefined && choices.length <= 40) {
    return [`${names} ${choices}`, description.replace(choicesSuffix, "")]
  }
  // A choice flag with a metavar (`--completions <bash|zsh|…>`) already shows its choices.
  if (choicesSuffix.test(description) && /^<.*\|.*>$/.test(flag.type)) {
    return [`${names} ${flag.type.slice(1, -1)}`, description.replace(choicesSuffix, "")]
  }
  return [flag.type === "boolean" ? names : `${names} ${flag.type}`, description]
}

const flagEntries = (flags: ReadonlyArray<HelpDoc.FlagDoc>, ansi: boolean): Array<string> =>
  flags.flatMap((flag) => entry(...flagEntry(flag), ansi))

const argName = (arg: HelpDoc.ArgDoc): string => `<${arg.name}>${arg.variadic ? "..." : ""}`

/** The commands under `command`, one level of nesting: `datasets`, then `datasets releases`, … */
const commandRows = (command: Command.Command.Any): Array<readonly [string, string]> =>
  command.subcommands.flatMap((group) =>
    group.commands.filter((child) => !child.unlisted).flatMap((child) => [
      [child.name, child.description ?? ""] as const,
      ...child.subcommands.flatMap((inner) =>
        inner.commands.map((sub) => [`${child.name} ${sub.name}`, sub.description ?? ""] as const)
      )
    ])
  )

/** The command at `path` (the root's name first). */
const commandAt = (root: Command.Command.Any, path: ReadonlyArray<string>): Command.Command.Any =>
  path.slice(1).reduce(
    (command, name) =>
      command.subcommands.flatMap((group) => group.commands).find((child) => child.name === name) ?? command,
    root
  )

/**
 * The one-line usage of a command: `s2 search [options] <query>`. Required flags are spelled out,
 * optional ones are `[options]`.
 *
 * @since 1.0.0
 */
export const usageLine = (doc: HelpDoc.HelpDoc, path: ReadonlyArray<string>): string => {
  const flags = [...doc.flags, ...(doc.inheritedFlags ?? [])]
  const required = flags.filter((flag) => flag.required).map((flag) => `--${flag.name} ${flag.type}`)
  const optional = flags.some((flag) => !flag.required) ? ["[options]"] : []
  const args = doc.subcommands !== undefined
    ? ["<command>"]
    : (doc.args ?? []).map((arg) => (arg.required ? argName(arg) : `[${argName(arg)}]`))
  return [...path, ...required, ...optional, ...args].join(" ")
}

/** A command and its description, a wrapped description going on under itself, not under the names. */
const commandRow = (name: string, text: string, nameWidth: number): Array<string> => {
  const indent = 2 + nameWidth + 2
  return wrap(text, indent).map((line, i) =>
    i === 0 ? `  ${name.padEnd(nameWidth + 2)}${line}` : " ".repeat(indent) + line
  )
}

const commandsSection = (root: Command.Command.Any, path: ReadonlyArray<string>, ansi: boolean): Array<string> => {
  const rows = commandRows(commandAt(root, path))
  const nameWidth = rows.reduce((width, [name]) => Math.max(width, name.length), 0)
  return [
    ...section("COMMANDS", rows.flatMap(([name, text]) => commandRow(name, text, nameWidth)), ansi),
    "",
    bold(`Run "${path.join(" ")} <command> --help" for the arguments and options of a command.`, ansi)
  ]
}

/**
 * The help of the command at `path` (the root's name first): usage, description, for a command
 * with subcommands the list of them (what a reader of `s2 --help` looks for first, before the
 * options every command takes), arguments, the command's own flags, then the flags every command
 * takes; for the root, `--help` and `--version`.
 *
 * @since 1.0.0
 */
export const render = (
  doc: HelpDoc.HelpDoc,
  path: ReadonlyArray<string>,
  root: Command.Command.Any,
  ansi: boolean
): string => {
  const isRoot = path.length <= 1
  const lines = [
    bold("USAGE", ansi),
    `  ${usageLine(doc, path)}`,
    ...section("DESCRIPTION", doc.description === "" ? [] : paragraph(doc.description, 2), ansi),
    ...(doc.subcommands === undefined ? [] : commandsSection(root, path, ansi)),
    ...section(
      "ARGUMENTS",
      (doc.args ?? []).flatMap((arg) => entry(argName(arg), Option.getOrElse(arg.description, () => ""), ansi)),
      ansi
    ),
    ...section(isRoot ? "OPTIONS OF EVERY COMMAND" : "OPTIONS", flagEntries(doc.flags, ansi), ansi),
    ...section("OPTIONS OF EVERY COMMAND", flagEntries(doc.inheritedFlags ?? [], ansi), ansi),
    ...(isRoot ? section("OTHER OPTIONS", flagEntries(doc.globalFlags ?? [], ansi), ansi) : [])
  ]
  return lines.join("\n") + "\n"
}

/**
 * What `s2` (or `s2 datasets`) without a command prints on standard error before exiting 2.
 *
 * @since 1.0.0
 */
export const shortUsage = (doc: HelpDoc.HelpDoc, path: ReadonlyArray<string>): string => {
  const command = path.join(" ")
  const names = (doc.subcommands ?? []).flatMap((group) => group.commands.map((child) => child.name))
  return [
    `usage: ${command} <command> [options]`,
    `commands: ${names.join(", ")}`,
    `Run "${command} --help" for what each does.`,
    ""
  ].join("\n")
}

/**
 * A word of the command line as a message quotes it: cut (the client's one `excerpt`), so that a
 * 120,000-character value or name still makes one short line.
 */
const quoted = (value: string): string => JSON.stringify(excerpt(value, 200))

/**
 * The line for a command name `s2` does not know (without the `s2: ` prefix): the nearest names
 * when there are any (`did you mean \`search\`?`), else every name there is.
 *
 * @since 1.0.0
 */
export const unknownCommand = (
  name: string,
  suggestions: ReadonlyArray<string>,
  names: ReadonlyArray<string>
): string =>
  suggestions.length > 0
    ? `unknown command ${quoted(name)}: did you mean ${suggestions.map((s) => `\`${s}\``).join(" or ")}?`
    : `unknown command ${quoted(name)}: use one of ${names.join(", ")}`

/** Edit distance (insertions, deletions, substitutions) between two short names. */
const distance = (a: string, b: string): number => {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    row = next
  }
  return row[b.length]!
}

/**
 * The names nearest to `input`, at most two edits away, as `effect/cli` suggests them for a
 * mistyped command (its own function is internal): for `s2 help serach`.
 *
 * @since 1.0.0
 */
export const nearest = (input: string, names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const scored = names.map((name) => [distance(input, name), name] as const).filter(([d]) => d <= 2)
  const best = scored.reduce((min, [d]) => Math.min(min, d), Infinity)
  return scored.filter(([d]) => d === best).map(([, name]) => name)
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? "an" : "a")

/** The choices of a choice flag's expectation (`"json" | "jsonl"`), or `undefined`. */
const choicesOf = (expected: string): ReadonlyArray<string> | undefined =>
  expected.includes(" | ") ? expected.split(" | ").map((choice) => choice.replace(/^"(.*)"$/, "$1")) : undefined

const invalidValue = (error: CliError.InvalidValue, doc: HelpDoc.HelpDoc, seeHelp: string): string => {
  const name = error.kind === "flag" ? `--${error.option}` : `<${error.option}>`
  if (error.kind === "flag" && error.value === "") return `${name} needs a value ${seeHelp}`
  const choices = choicesOf(error.expected)
  if (choices !== undefined) {
    return `${name} ${quoted(error.value)} is invalid: give one of ${choices.join(", ")}`
  }
  const type = [...doc.flags, ...(doc.inheritedFlags ?? []), ...(doc.args ?? [])]
    .find((param) => param.name === error.option)?.type
  return type === undefined || type === "string"
    ? `${name} ${quoted(error.value)} is invalid: ${excerpt(error.expected)}`
    : `${name} ${quoted(error.value)} is invalid: give ${article(type)} ${type}`
}

/**
 * The one line of a command line `effect/cli` could not parse, naming the flag or argument at fault
 * (without the `s2: ` prefix).
 *
 * @since 1.0.0
 */
export const parseError = (
  error: CliError.NonShowHelpErrors,
  doc: HelpDoc.HelpDoc,
  path: ReadonlyArray<string>
): string => {
  const seeHelp = `(see ${path.join(" ")} --help)`
  switch (error._tag) {
    case "InvalidValue":
      return invalidValue(error, doc, seeHelp)
    case "MissingOption":
      return `--${error.option} is required ${seeHelp}`
    case "MissingArgument":
      return `missing argument <${error.argument}> ${seeHelp}`
    case "UnrecognizedOption":
      return `unknown option ${excerpt(error.option, 200)}${
        error.suggestions.length > 0 ? ` (did you mean ${error.suggestions.join(" or ")}?)` : ""
      } ${seeHelp}`
    case "UnexpectedArgument":
      return `unexpected argument ${quoted(error.arguments[0] ?? "")} ${seeHelp}`
    case "UnknownSubcommand":
      return unknownCommand(
        error.subcommand,
        error.suggestions,
        (doc.subcommands ?? []).flatMap((group) => group.commands.map((child) => child.name))
      )
    default:
      // effect/cli's own words, which may quote a value whole.
      return excerpt(error.message)
  }
}

/**
 * The presenter of `s2`'s help, version and parse errors, writing to `printer`: help and the version
 * to standard output, a missing command and parse errors to standard error. `root` is the command
 * tree, for the list of commands under a command.
 *
 * @since 1.0.0
 */
export const presenter = (options: {
  readonly printer: PrinterService
  readonly root: Command.Command.Any
  readonly version: string
}): CliOutput.Presenter => ({
  present: (event) => {
    const { root, printer, version } = options
    switch (event._tag) {
      case "Version":
        return printer.out(`${version}\n`)
      case "Help":
        return event.reason === "Requested"
          ? printer.out(render(event.helpDoc, event.commandPath, root, colors(printer.outIsTTY)))
          : printer.err(shortUsage(event.helpDoc, event.commandPath))
      case "InvalidInvocation": {
        const [first] = event.errors
        return first === undefined
          ? Effect.void
          // One line: an option is named as typed, and a control character in it is shown escaped.
          : printer.err(`s2: ${visible(parseError(first, event.helpDoc, event.commandPath))}\n`)
      }
    }
  }
})
