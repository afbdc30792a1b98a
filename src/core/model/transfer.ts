/** What import and export speak: the formats Cairn reads, and the ones it writes. */

/** The formats `import_tasks` reads: a Cairn export and other tools' task stores. */
export const SOURCES = ['cairn', 'castle', 'devplanner', 'taskmaster', 'backlog', 'beads'] as const;
export type SourceName = (typeof SOURCES)[number];

/** The formats `export_tasks` writes. */
export const EXPORT_FORMATS = ['jsonl', 'markdown'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
