// What www/views/key-editor.js takes from CodeMirror 6, bundled by scripts/build-editor.mjs into
// www/pkg/codemirror.js: one ES module the page imports lazily, after its first render.
export { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
export { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
export { bracketMatching, HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
export { linter, lintKeymap, setDiagnostics } from '@codemirror/lint';
export { Annotation, EditorState } from '@codemirror/state';
export { EditorView, keymap, placeholder } from '@codemirror/view';
export { tags } from '@lezer/highlight';
