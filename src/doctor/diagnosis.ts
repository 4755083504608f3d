/** What each section of `tack doctor` reports: lines, each with its section and how it stands. */

export type DiagnosisStatus = 'ok' | 'problem' | 'warning' | 'skipped';

export type Section = 'config' | 'names' | 'tls' | 'hosts' | 'sign-in' | 'partner' | 'hook' | 'token file' | 'browser';

/** One line of the doctor's report: a section, how it stands, and what was seen. */
export interface Diagnosis {
  readonly section: Section;
  readonly status: DiagnosisStatus;
  readonly text: string;
}

/** How a section reports a line. */
export type Say = (status: DiagnosisStatus, text: string) => void;
