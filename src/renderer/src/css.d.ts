// The views import their style sheets for Vite to bundle (`import './styles.css'`): a side effect with no value.
// TypeScript 7 checks that a side-effect import resolves to something it knows; this says a style sheet is one.
declare module '*.css';
