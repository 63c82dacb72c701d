import { describeEngineScenarios } from "./engineScenarios.js";
import { MEMORY_PAIR } from "./support/adapterPairs.js";

describeEngineScenarios(MEMORY_PAIR);
