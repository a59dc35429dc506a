export {
  type BenchmarkCase,
  type CompareOptions,
  type ComparisonRow,
  compareWithBaseline,
  printComparison,
} from './compare-with-baseline.js';
export { formatTable } from './format-table.js';
