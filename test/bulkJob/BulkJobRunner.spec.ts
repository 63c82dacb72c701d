import { describeEngineScenarios } from "./engineScenarios.js";
import { DOCUMENT_PAIR } from "./support/documentPair.js";
import { JOURNAL_PAIR } from "./support/journalPair.js";
import { MEMORY_PAIR } from "./support/adapterPairs.js";

describeEngineScenarios(MEMORY_PAIR);
describeEngineScenarios(JOURNAL_PAIR);
describeEngineScenarios(DOCUMENT_PAIR);
