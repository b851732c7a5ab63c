import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { existsSync } from 'node:fs';
import { chartSvg, type ChartInput } from './charts.ts';
import { scriptRuns, type Script } from './script-runs.ts';

/**
 * A report as a PDF a manager can forward (docs/reports.md, "PDF"): A4, a title block (type, period, zone,
 * filters), the summary figures, the charts (vega-lite SVG drawn by svg-to-pdfkit), then each table, split across
 * pages with its header row repeated, and "Page n of m" on every page. Text in Devanagari, Tamil and Telugu is
 * drawn with Debian's `fonts-noto-core` fonts, run by run (script-runs.ts).
 */
export const FONT_DIRECTORY = process.env.REPORT_FONT_DIRECTORY ?? '/usr/share/fonts/truetype/noto';

const FONT_FILES: Record<Script, { regular: string; bold: string }> = {
  latin: { regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' },
  devanagari: { regular: 'NotoSansDevanagari-Regular.ttf', bold: 'NotoSansDevanagari-Bold.ttf' },
  tamil: { regular: 'NotoSansTamil-Regular.ttf', bold: 'NotoSansTamil-Bold.ttf' },
  telugu: { regular: 'NotoSansTelugu-Regular.ttf', bold: 'NotoSansTelugu-Bold.ttf' },
};

export class MissingFontsError extends Error {}

export interface PdfTable {
  title: string;
  columns: Array<{ key: string; title: string; numeric?: boolean }>;
  rows: Array<Record<string, string | number | null>>;
}

export interface PdfReport {
  title: string;
  /** Lines under the title: period, zone, filters, when generated. */
  subtitle: string[];
  summary: Array<{ label: string; value: string | number | null }>;
  charts: ChartInput[];
  tables: PdfTable[];
}

const MARGIN = 40;
const PAGE = { width: 595.28, height: 841.89 };
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const FOOTER = 24;
const ROW_HEIGHT = 16;
const FONT_SIZE = 8;

type Doc = InstanceType<typeof PDFDocument>;

function fontName(script: Script, bold: boolean): string {
  return `${script}-${bold ? 'bold' : 'regular'}`;
}

function registerFonts(doc: Doc): void {
  for (const [script, files] of Object.entries(FONT_FILES) as Array<[Script, { regular: string; bold: string }]>) {
    for (const weight of ['regular', 'bold'] as const) {
      const path = `${FONT_DIRECTORY}/${files[weight]}`;
      if (!existsSync(path)) throw new MissingFontsError(`PDF reports need ${path} (Debian package fonts-noto-core; scripts/setup.sh installs it)`);
      doc.registerFont(fontName(script, weight === 'bold'), path);
    }
  }
}

export function displayValue(value: string | number | null): string {
  if (value === null) return '–';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toLocaleString('en-IN') : String(value);
  return value;
}

/** Draws text run by run in the fonts of its scripts, on one line, cut with an ellipsis at `maxWidth`. */
function drawText(doc: Doc, text: string, x: number, y: number, options: { size: number; bold?: boolean; maxWidth?: number; align?: 'left' | 'right' }): void {
  const runs = scriptRuns(text);
  const measure = (run: { script: Script; text: string }) => doc.font(fontName(run.script, options.bold ?? false)).fontSize(options.size).widthOfString(run.text);
  const maxWidth = options.maxWidth ?? Number.POSITIVE_INFINITY;
  let total = runs.reduce((sum, run) => sum + measure(run), 0);
  if (total > maxWidth) {
    // Drop characters from the end (whole grapheme clusters) until the text and an ellipsis fit.
    const segments = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map((segment) => segment.segment);
    while (segments.length > 0) {
      segments.pop();
      const candidate = scriptRuns(`${segments.join('').trimEnd()}…`);
      const width = candidate.reduce((sum, run) => sum + measure(run), 0);
      if (width <= maxWidth) {
        runs.splice(0, runs.length, ...candidate);
        total = width;
        break;
      }
    }
  }
  let cursor = options.align === 'right' && Number.isFinite(maxWidth) ? x + maxWidth - total : x;
  // doc.text moves the cursor down a line; the layout here places every line itself.
  const cursorY = doc.y;
  for (const run of runs) {
    doc.font(fontName(run.script, options.bold ?? false)).fontSize(options.size);
    doc.text(run.text, cursor, y, { lineBreak: false });
    cursor += doc.widthOfString(run.text);
  }
  doc.y = cursorY;
}

function ensureSpace(doc: Doc, height: number): boolean {
  if (doc.y + height <= PAGE.height - MARGIN - FOOTER) return false;
  doc.addPage();
  doc.y = MARGIN;
  return true;
}

/**
 * Column widths: each column's wish is its longest text (header included, first 200 rows), at least 28 pt and at
 * most 220 pt; the wishes are then scaled to the content width. A table of many columns is set smaller (fontSize).
 */
function columnWidths(doc: Doc, table: PdfTable, size: number): number[] {
  const wants = table.columns.map((column) => {
    let longest = doc.font(fontName('latin', true)).fontSize(size).widthOfString(column.title);
    for (const row of table.rows.slice(0, 200)) longest = Math.max(longest, doc.font(fontName('latin', false)).fontSize(size).widthOfString(displayValue(row[column.key] ?? null)));
    return Math.min(Math.max(longest + 8, 28), 220);
  });
  const sum = wants.reduce((total, width) => total + width, 0);
  return wants.map((width) => (width / sum) * CONTENT_WIDTH);
}

/** 8 pt, smaller for wide tables (down to 6 pt), so that more of each cell shows. */
function tableFontSize(table: PdfTable): number {
  return table.columns.length <= 8 ? FONT_SIZE : Math.max(6, FONT_SIZE - (table.columns.length - 8) * 0.3);
}

function drawTable(doc: Doc, table: PdfTable): void {
  ensureSpace(doc, 40 + ROW_HEIGHT * 2);
  drawText(doc, table.title, MARGIN, doc.y, { size: 12, bold: true });
  doc.y += 20;
  const size = tableFontSize(table);
  const widths = columnWidths(doc, table, size);
  const header = () => {
    doc.rect(MARGIN, doc.y, CONTENT_WIDTH, ROW_HEIGHT).fill('#e8edf3');
    doc.fillColor('#111');
    let x = MARGIN;
    table.columns.forEach((column, index) => {
      drawText(doc, column.title, x + 3, doc.y + 4, { size, bold: true, maxWidth: widths[index]! - 6, align: column.numeric ? 'right' : 'left' });
      x += widths[index]!;
    });
    doc.y += ROW_HEIGHT;
  };
  header();
  if (table.rows.length === 0) {
    drawText(doc, 'No data in this period.', MARGIN + 3, doc.y + 4, { size: FONT_SIZE });
    doc.y += ROW_HEIGHT;
  }
  table.rows.forEach((row, rowIndex) => {
    // A row that does not fit starts a new page, which repeats the header.
    if (ensureSpace(doc, ROW_HEIGHT)) header();
    if (rowIndex % 2 === 1) doc.rect(MARGIN, doc.y, CONTENT_WIDTH, ROW_HEIGHT).fill('#f7f9fb');
    doc.fillColor('#111');
    let x = MARGIN;
    table.columns.forEach((column, index) => {
      drawText(doc, displayValue(row[column.key] ?? null), x + 3, doc.y + 4, { size, maxWidth: widths[index]! - 6, align: column.numeric ? 'right' : 'left' });
      x += widths[index]!;
    });
    doc.y += ROW_HEIGHT;
  });
  doc.y += 14;
}

function drawSummary(doc: Doc, summary: PdfReport['summary']): void {
  if (summary.length === 0) return;
  const width = CONTENT_WIDTH / Math.min(summary.length, 4);
  summary.forEach((figure, index) => {
    const column = index % 4;
    if (column === 0 && index > 0) doc.y += 50;
    const x = MARGIN + column * width;
    doc.roundedRect(x + 2, doc.y, width - 4, 44, 4).fill('#f1f4f8');
    doc.fillColor('#555');
    drawText(doc, figure.label, x + 10, doc.y + 6, { size: 8, maxWidth: width - 20 });
    doc.fillColor('#111');
    drawText(doc, displayValue(figure.value), x + 10, doc.y + 19, { size: 16, bold: true, maxWidth: width - 20 });
  });
  doc.y += 60;
}

export async function reportPdf(report: PdfReport, options: { creationDate?: Date } = {}): Promise<Uint8Array> {
  const svgs: string[] = [];
  for (const chart of report.charts) svgs.push(await chartSvg(chart));
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: report.title, Producer: 'voice-calling-service', CreationDate: options.creationDate ?? new Date() } });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });

  doc.fillColor('#0b2545');
  drawText(doc, report.title, MARGIN, MARGIN, { size: 20, bold: true, maxWidth: CONTENT_WIDTH });
  doc.y = MARGIN + 30;
  doc.fillColor('#444');
  for (const line of report.subtitle) {
    drawText(doc, line, MARGIN, doc.y, { size: 9, maxWidth: CONTENT_WIDTH });
    doc.y += 13;
  }
  doc.moveTo(MARGIN, doc.y + 4).lineTo(PAGE.width - MARGIN, doc.y + 4).strokeColor('#ccd').stroke();
  doc.y += 16;
  drawSummary(doc, report.summary);

  for (const drawn of svgs) {
    // Without its own width and height (px, which svg-to-pdfkit reads at 0.75 pt), the chart is fitted to the
    // content width by its viewBox.
    const svg = drawn.replace(/^<svg([^>]*?) width="[\d.]+" height="[\d.]+"/, '<svg$1');
    const match = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
    const aspect = match ? Number(match[2]) / Number(match[1]) : 0.45;
    const height = CONTENT_WIDTH * aspect;
    ensureSpace(doc, height + 10);
    // svg-to-pdfkit draws its text with doc.text, which moves the cursor: place the next block from where the chart began.
    const top = doc.y;
    SVGtoPDF(doc, svg, MARGIN, top, { width: CONTENT_WIDTH, height, fontCallback: (_family: string, bold: boolean) => fontName('latin', bold) });
    doc.y = top + height + 12;
  }
  for (const table of report.tables) drawTable(doc, table);

  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index++) {
    doc.switchToPage(range.start + index);
    // The footer sits in the bottom margin: without this, pdfkit would start a new page for it.
    doc.page.margins.bottom = 0;
    doc.fillColor('#777');
    const label = `Page ${index + 1} of ${range.count}`;
    doc.font(fontName('latin', false)).fontSize(8);
    doc.text(label, PAGE.width - MARGIN - doc.widthOfString(label), PAGE.height - MARGIN, { lineBreak: false });
    drawText(doc, report.title, MARGIN, PAGE.height - MARGIN, { size: 8, maxWidth: CONTENT_WIDTH / 2 });
  }
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
