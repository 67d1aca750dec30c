/** LIKE's wildcards and its escape character, taken literally: a search for "50%" finds "50%", not "50" and more. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)
