// Lint setup modelled on the Effect repository's own: typescript-eslint's recommended rules plus
// @effect/eslint-plugin's dprint formatting rule, so formatting is checked by the same run.
import effect from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/build/**",
      "**/node_modules/**",
      "**/generated/**",
      "**/*.mjs",
      "**/*.js",
      // JavaScript that is a source, not a build: the HTML maps' page code, inlined into each map.
      "!packages/cli/src/render/map/*.js"
    ]
  },
  ...tseslint.configs.recommended,
  {
    plugins: { "@effect": effect },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/consistent-type-imports": "error",
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }]
    }
  },
  {
    // A replacement string of String.replace/replaceAll is a pattern (`$'` is the text after the
    // match, `$&` the match): one built from a user's or a server's text rewrites what it replaces
    // (issue 44 point 1: an id with `$'` reached another API path). A literal or a function only.
    files: ["packages/*/src/**/*.ts"],
    rules: {
      "no-restricted-syntax": ["error", {
        selector: "CallExpression[callee.property.name=/^replace(All)?$/][arguments.length=2]" +
          ":not([arguments.1.type=/^(Literal|ArrowFunctionExpression|FunctionExpression)$/])" +
          ":not([arguments.1.type='TemplateLiteral'][arguments.1.expressions.length=0])",
        message: "replace/replaceAll with a computed replacement string: `$'`, `$&` in it are patterns; " +
          "give a literal or a function ((match) => text)"
      }]
    }
  },
  {
    // One import style in the packages, the Effect repository's: Effect modules by path, as namespaces
    // (`import * as Effect from "effect/Effect"`), never from a package's barrel.
    files: ["packages/*/src/**/*.ts"],
    rules: {
      "@effect/no-import-from-barrel-package": ["error", {
        packageNames: [
          "effect",
          "@effect/platform-node"
        ]
      }]
    }
  }
)
