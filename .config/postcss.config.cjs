// PostCSS for Vite: Panda generates the CSS. Kept in .config/ so the top level stays as the design card fixes it.
module.exports = { plugins: { '@pandacss/dev/postcss': {} } }
