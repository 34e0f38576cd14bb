import '@testing-library/jest-dom/vitest';
import { activateEnglishForTests } from './web/src/test-support/english-for-tests.ts';

activateEnglishForTests();
