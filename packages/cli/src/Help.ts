/**
 * Help, usage and parse-error lines of `s2`. @effect/cli parses the command line; what it prints is
 * written for a generic application (`$ search …` usage lines, a type sentence under every option,
 * ANSI escapes into pipes, parse errors that do not say which option was wrong), so the CLI renders
 * those texts itself, here, from the same command descriptors.
 *
 * @since 0.1.0
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Span from "@effect/cli/HelpDoc/Span"
import type * as Usage from "@effect/cli/Usage"
import type * as ValidationError from "@effect/cli/ValidationError"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"

/**
 * A command and the commands under it (`datasets` has `releases`, `links`, …).
 *
 * @since 0.1.0
 */
export interface Node {
  readonly name: string
  readonly descriptor: Descriptor.Command<unknown>
  readonly children: ReadonlyArray<Node>
}

/**
 * The configuration help is rendered with: @effect/cli's built-in options (`--wizard`,
 * `--completions`, `--log-level`) are left out of every command's option list.
 *
 * @since 0.1.0
 */
export const config: CliConfig.CliConfig = { ...CliConfig.defaultConfig, showBuiltIns: false }

const nameOf = (descriptor: Descriptor.Command<unknown>): string =>
  [...HashSet.values(Descriptor.getNames(descriptor))][0] ?? ""

/**
 * The command tree: `root` and its subcommands, one level of nesting under each.
 *
 * @since 0.1.0
 */
export const tree = (
  root: Descriptor.Command<unknown>,
  commands: ReadonlyArray<Descriptor.Command<unknown>>
): Node => ({
  name: nameOf(root),
  descriptor: root,
  children: commands.map((descriptor) => {
    const name = nameOf(descriptor)
    // A leaf lists itself as its only subcommand.
    const children = [...HashMap.entries(Descriptor.getSubcommands(descriptor))]
      .filter(([child]) => child !== name)
      .map(([child, sub]) => ({ name: child, descriptor: sub, children: [] }))
    if (children.length < 2) return { name, descriptor, children }
    // The map is unordered: @effect/cli's own help lists the subcommands in the order they were
    // defined. Rendered only for a command with subcommands: every start builds this tree.
    const listed = lines(Descriptor.getHelp(descriptor, config), false).join("\n")
    children.sort((a, b) => listed.indexOf(`\n  ${a.name} `) - listed.indexOf(`\n  ${b.name} `))
    return { name, descriptor, children }
  })
})

/**
 * Where `args` (the arguments after the executable) point in the tree: the command path, its node,
 * and the arguments with each subcommand name moved in front of the options given before it, so
 * that `s2 datasets --api-key-file F links papers` reads as `s2 datasets links --api-key-file F
 * papers`.
 *
 * @since 0.1.0
 */
export const locate = (
  root: Node,
  args: ReadonlyArray<string>
): { readonly path: ReadonlyArray<string>; readonly node: Node; readonly args: ReadonlyArray<string> } => {
  const out = [...args]
  const path: Array<string> = []
  let node = root
  for (let i = 0; node.children.length > 0 && i < out.length; i++) {
    const children = node.children
    const isChild = (arg: string) => children.some((child) => child.name === arg)
    // Options given before the subcommand belong to it: find the subcommand after them.
    const j = out[i]!.startsWith("-") ? out.findIndex((arg, k) => k > i && isChild(arg)) : isChild(out[i]!) ? i : -1
    if (j < 0) break
    const [name] = out.splice(j, 1)
    out.splice(i, 0, name!)
    path.push(name!)
    node = children.find((child) => child.name === name)!
  }
  return { path, node, args: out }
}

interface Words {
  readonly options: Array<string>
  readonly args: Array<string>
  optional: boolean
}

const words = (usage: Usage.Usage, optional: boolean, repeated: boolean, out: Words): void => {
  switch (usage._tag) {
    case "Empty":
    case "Mixed":
      return
    case "Named": {
      const name = usage.names.join(", ")
      const values = Option.match(usage.acceptedValues, { onNone: () => "", onSome: (v) => ` ${v}` })
      if (name.startsWith("-")) {
        // A repeated option may be given zero times: it is optional too.
        if (optional || repeated) out.optional = true
        else out.options.push(`${name}${values}`)
      } else if (name.startsWith("<")) {
        const arg = `${name}${repeated ? "..." : ""}`
        out.args.push(optional ? `[${arg}]` : arg)
      }
      return
    }
    case "Optional":
      return words(usage.usage, true, repeated, out)
    case "Repeated":
      return words(usage.usage, optional, true, out)
    case "Alternation":
    case "Concat":
      words(usage.left, optional, repeated, out)
      return words(usage.right, optional, repeated, out)
  }
}

/**
 * The one-line usage of a command: `s2 search [options] <query>`. Required options are spelled out,
 * optional ones (and repeated ones, which may be given zero times) are `[options]`.
 *
 * @since 0.1.0
 */
export const usageLine = (path: ReadonlyArray<string>, node: Node): string => {
  const out: Words = { options: [], args: [], optional: false }
  words(Descriptor.getUsage(node.descriptor), false, false, out)
  // A command with subcommands has an empty usage of its own (@effect/cli's `Mixed`).
  const args = node.children.length > 0 ? ["<command>"] : out.args
  return ["s2", ...path, ...out.options, ...(out.optional ? ["[options]"] : []), ...args].join(" ")
}

// What @effect/cli says of every option and argument of a type, whatever it is for.
const filler =
  /^(A user-defined piece of text\.|A true or false value\.|An integer\.|A floating point number\.|This setting is optional\.|One of the following: .*)$/

const spanText = (span: Span.Span): string => {
  switch (span._tag) {
    case "Text":
    case "URI":
      return span.value
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    default:
      return spanText(span.value)
  }
}

/**
 * The help of a command without @effect/cli's filler sentences and without its list of
 * subcommands (whose lines repeat every option of every command).
 *
 * @since 0.1.0
 */
export const tidy = (doc: HelpDoc.HelpDoc): HelpDoc.HelpDoc => {
  switch (doc._tag) {
    case "Paragraph":
      return filler.test(spanText(doc.value).trim()) ? HelpDoc.empty : doc
    case "Header":
      return spanText(doc.value) === "COMMANDS" ? HelpDoc.empty : doc
    case "Enumeration":
      return HelpDoc.empty
    case "DescriptionList":
      return HelpDoc.mapDescriptionList(doc, (term, body) => [term, tidy(body)])
    case "Sequence": {
      const left = tidy(doc.left)
      const right = tidy(doc.right)
      return HelpDoc.isEmpty(left) ? right : HelpDoc.isEmpty(right) ? left : HelpDoc.sequence(left, right)
    }
    case "Empty":
      return doc
  }
}

const description = (node: Node): string => {
  const flat: Array<HelpDoc.HelpDoc> = []
  const flatten = (doc: HelpDoc.HelpDoc): void => {
    if (doc._tag === "Sequence") {
      flatten(doc.left)
      flatten(doc.right)
    } else flat.push(doc)
  }
  flatten(Descriptor.getHelp(node.descriptor, config))
  const k = flat.findIndex((doc) => doc._tag === "Header" && spanText(doc.value) === "DESCRIPTION")
  const paragraph = flat[k + 1]
  return k >= 0 && paragraph?._tag === "Paragraph" ? spanText(paragraph.value) : ""
}

const commandsSection = (path: ReadonlyArray<string>, node: Node): HelpDoc.HelpDoc => {
  const rows = node.children.flatMap((child) => [
    [child.name, child] as const,
    ...child.children.map((sub) => [`${child.name} ${sub.name}`, sub] as const)
  ])
  const width = Math.max(...rows.map(([name]) => name.length))
  return HelpDoc.blocks([
    HelpDoc.h1("COMMANDS"),
    ...rows.map(([name, child]) => HelpDoc.p(`${name.padEnd(width + 2)}${description(child)}`)),
    HelpDoc.h1(`Run "${["s2", ...path].join(" ")} <command> --help" for the arguments and options of a command.`)
  ])
}

const rootOptions = HelpDoc.blocks([
  HelpDoc.h1("OPTIONS"),
  HelpDoc.descriptionList([
    [Span.text("-h, --help"), HelpDoc.p("Show this help, or a command's (s2 search --help)")],
    [Span.text("--version"), HelpDoc.p("Show the version of s2")]
  ])
])

/**
 * The help of the command at `path`: usage, description, arguments and options; for a command
 * with subcommands, the list of them.
 *
 * @since 0.1.0
 */
export const help = (path: ReadonlyArray<string>, node: Node): HelpDoc.HelpDoc =>
  HelpDoc.blocks([
    HelpDoc.h1("USAGE"),
    HelpDoc.p(usageLine(path, node)),
    tidy(Descriptor.getHelp(node.descriptor, config)),
    ...(node.children.length > 0 ? [commandsSection(path, node)] : []),
    ...(path.length === 0 ? [rootOptions] : [])
  ])

/**
 * What `s2` (or `s2 datasets`) without a command prints on standard error before exiting 2.
 *
 * @since 0.1.0
 */
export const shortUsage = (path: ReadonlyArray<string>, node: Node): string => {
  const command = ["s2", ...path].join(" ")
  return [
    `usage: ${command} <command> [options]`,
    `commands: ${node.children.map((child) => child.name).join(", ")}`,
    `Run "${command} --help" for what each does.`,
    ""
  ].join("\n")
}

const bold = (text: string, ansi: boolean): string => ansi ? `\x1b[1m${text}\x1b[0m` : text

/** Help is wrapped to the width of a common terminal. */
const width = 100

/** Words of `text` in lines of at most `width - indent` characters (a longer word stands alone). */
const wrap = (text: string, indent: number): Array<string> =>
  text.split(" ").reduce<Array<string>>((acc, word) => {
    const last = acc[acc.length - 1]
    if (last !== undefined && last.length + 1 + word.length <= width - indent) acc[acc.length - 1] = `${last} ${word}`
    else acc.push(word)
    return acc
  }, [])

const lines = (doc: HelpDoc.HelpDoc, ansi: boolean, indent = 2): Array<string> => {
  const pad = " ".repeat(indent)
  switch (doc._tag) {
    case "Empty":
      return []
    case "Header":
      return ["", bold(spanText(doc.value), ansi)]
    case "Paragraph":
      return wrap(spanText(doc.value), indent).map((line) => pad + line)
    case "DescriptionList":
      return doc.definitions.flatMap(([term, body]) => [
        ...wrap(spanText(term), indent + 2).map((line, i) => pad + (i === 0 ? bold(line, ansi) : `  ${line}`)),
        ...lines(body, ansi, indent + 4)
      ])
    case "Enumeration":
      return doc.elements.flatMap((element) => lines(element, ansi, indent))
    case "Sequence":
      return [...lines(doc.left, ansi, indent), ...lines(doc.right, ansi, indent)]
  }
}

/**
 * Renders help as text, sections separated by a blank line: headers in bold on a terminal, no
 * escape codes at all otherwise. (@effect/cli's own rendering always writes ANSI codes and puts a
 * blank line after every paragraph.)
 *
 * @since 0.1.0
 */
export const render = (doc: HelpDoc.HelpDoc, ansi: boolean): string =>
  lines(doc, ansi).join("\n").replace(/^\n/, "") + "\n"

const valueOf = (args: ReadonlyArray<string>, option: string): string | undefined => {
  const k = args.lastIndexOf(option)
  if (k >= 0) return args[k + 1]
  return [...args].reverse().find((arg) => arg.startsWith(`${option}=`))?.slice(option.length + 1)
}

/** The first option of `usage` that `test` accepts: its name. */
const optionWith = (
  usage: Usage.Usage,
  test: (names: ReadonlyArray<string>, accepted: string | undefined) => boolean
): string | undefined => {
  switch (usage._tag) {
    case "Named":
      return test(usage.names, Option.getOrUndefined(usage.acceptedValues)) ? usage.names[0] : undefined
    case "Optional":
    case "Repeated":
      return optionWith(usage.usage, test)
    case "Alternation":
    case "Concat":
      return optionWith(usage.left, test) ?? optionWith(usage.right, test)
    default:
      return undefined
  }
}

interface Failed {
  readonly path: ReadonlyArray<string>
  readonly node: Node
  readonly args: ReadonlyArray<string>
}

const seeHelp = (failed: Failed) => `(see ${["s2", ...failed.path].join(" ")} --help)`

/** @effect/cli's parse messages, and what `s2` says instead (`undefined`: keep the original). */
const rewrites: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray, failed: Failed) => string | undefined]> = [
  [/^Expected one of the following cases: (.*)$/, ([, list], failed) => {
    const allowed = list!.split(", ")
    const option = optionWith(
      Descriptor.getUsage(failed.node.descriptor),
      (_, accepted) => accepted === allowed.join(" | ")
    )
    const given = option === undefined ? undefined : JSON.stringify(valueOf(failed.args, option) ?? "")
    return option && `${option} ${given} is invalid: give one of ${allowed.join(", ")}`
  }],
  [/^'(.*)' is not a (.*)$/, ([, value, type], failed) => {
    const k = failed.args.indexOf(value!)
    const option = k > 0 && failed.args[k - 1]!.startsWith("-") ? `${failed.args[k - 1]} ` : ""
    return `${option}${JSON.stringify(value)} is invalid: give ${/^[aeiou]/.test(type!) ? "an" : "a"} ${type}`
  }],
  [/^Expected to find option: '(.*)'$/, ([, option], failed) => `${option} is required ${seeHelp(failed)}`],
  [/^Missing argument (.*)$/, ([, argument], failed) => `missing argument ${argument} ${seeHelp(failed)}`],
  [/^Received unknown argument: '(-.*)'$/, ([, option], failed) =>
    // A known option left without its value is reported as unknown.
    optionWith(Descriptor.getUsage(failed.node.descriptor), (names) => names.includes(option!)) === undefined
      ? `unknown option ${option} ${seeHelp(failed)}`
      : `${option} needs a value ${seeHelp(failed)}`],
  [
    /^Received unknown argument: '(.*)'$/,
    ([, arg], failed) => `unexpected argument ${JSON.stringify(arg)} ${seeHelp(failed)}`
  ],
  [
    /^Invalid subcommand for /,
    (_, { args, node, path }) =>
      `unknown command ${JSON.stringify(args[path.length] ?? "")}: use one of ${
        node.children.map((c) => c.name).join(", ")
      }`
  ]
]

/**
 * The message of a command line @effect/cli could not parse, naming the option at fault
 * (without the `s2: ` prefix).
 *
 * @since 0.1.0
 */
export const parseError = (
  error: ValidationError.ValidationError,
  path: ReadonlyArray<string>,
  node: Node,
  args: ReadonlyArray<string>
): string => {
  const text = "error" in error
    ? lines(error.error, false).join(" ").replace(/\s+/g, " ").trim()
    : "invalid command line"
  for (const [pattern, rewrite] of rewrites) {
    const match = pattern.exec(text)
    const message = match === null ? undefined : rewrite(match, { path, node, args })
    if (message !== undefined) return message
  }
  return text
}
