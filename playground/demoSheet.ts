/**
 * The playground's demo workbook: customer reviews with their language on a sheet named
 * "Reviews" (row 1 holds the column names, as the task pane and SPELL.BULK expect), and an empty
 * "Sheet2" to try things on.
 */
import type { MockCellValue } from "./excel/mockWorkbook.js";

const REVIEWS: readonly [string, string][] = [
  ["Arrived a day early and works perfectly. Setup took five minutes.", "en"],
  ["The strap broke after a week. Support replied quickly, though.", "en"],
  ["Great sound for the price; the app is clunky.", "en"],
  ["La batería dura dos días de uso intensivo. Muy contento.", "es"],
  ["Pas comme décrit : la couleur est bien plus foncée que sur les photos.", "fr"],
  ["Solide verarbeitet, leiser Motor, leicht zu reinigen.", "de"],
  ["Stopped charging after a month. Refund was painless.", "en"],
  ["Exactly what I needed for the office.", "en"],
  ["Il manuale è incomprensibile, ma il prodotto funziona bene.", "it"],
  ["Chegou rápido e bem embalado. Recomendo.", "pt"],
  ["Too loud at night; I returned it.", "en"],
  ["Le service client a répondu en une heure. Bravo.", "fr"],
  ["Die Lieferung hat drei Wochen gedauert.", "de"],
  ["Five stars, would buy again.", "en"],
  ["El tamaño es perfecto para viajar.", "es"],
  ["The lid does not close properly after washing.", "en"],
  ["Goed product voor een eerlijke prijs.", "nl"],
  ["Screen scratches far too easily.", "en"],
  ["Funziona anche con le batterie ricaricabili.", "it"],
  ["Instructions were missing from the box.", "en"],
  ["Très bon rapport qualité-prix.", "fr"],
  ["Die App stürzt beim Start ab.", "de"],
  ["Comfortable to wear all day.", "en"],
  ["No encaja con el modelo anterior.", "es"],
  ["Kids love it, parents love the volume limit.", "en"],
  ["A cor é exatamente igual à da foto.", "pt"],
  ["The charger gets very hot.", "en"],
  ["Brak polskiej instrukcji, poza tym w porządku.", "pl"],
  ["Bluetooth pairing drops every few minutes.", "en"],
  ["Sehr leise und sparsam.", "de"],
  ["Colour faded after three washes.", "en"],
  ["Parfait pour le camping.", "fr"],
  ["The best purchase I made this year.", "en"],
  ["Lo devolví: llegó roto.", "es"],
  ["Battery indicator is always wrong.", "en"],
  ["Ottimo, lo consiglio.", "it"],
];

/**
 * The demo sheets, as rows of values from A1.
 *
 * ## Example
 * ```ts
 * const workbook = new MockWorkbook({ sheets: demoSheets(), selection: "Reviews!A1" });
 * ```
 */
export function demoSheets(): Record<string, MockCellValue[][]> {
  return {
    Reviews: [["text", "language"], ...REVIEWS.map(([text, language]) => [text, language])],
    Sheet2: [],
  };
}

/**
 * The widths (px) of the demo's first columns, by sheet: the reviews' text, language and a
 * result are wide enough to read. Every other sheet's columns (Sheet2, a sheet made with "+") have
 * the grid's default width, as a new Excel sheet's have the standard width.
 */
export const DEMO_COLUMN_WIDTHS: Readonly<Record<string, readonly number[]>> = {
  Reviews: [280, 80, 220],
};
