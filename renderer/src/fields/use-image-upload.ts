import { useEffect, useRef, useState } from 'react';
import type { UploadResponse } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { uploadProblem } from './image-upload.js';

/** The file being uploaded: its name and how much of it is sent (0 to 1). */
export interface UploadProgress {
  name: string;
  progress: number;
}

/** An image upload to the media library that a newer one, Cancel or leaving the screen aborts. */
export interface ImageUpload {
  /** Sends the file (aborting one still under way); `onUploaded` gets the server's answer. */
  upload(file: File): Promise<void>;
  /** Aborts the upload under way, if any, without a problem to show. */
  cancel(): void;
  /** The upload under way, or null. */
  uploading: UploadProgress | null;
  /** Why the last upload failed, as a sentence naming the file, or null. */
  problem: string | null;
  /** Forgets the last problem (the value changed another way). */
  clearProblem(): void;
}

/**
 * Uploads images with `POST /api/uploads`, one at a time: a new upload aborts the one before, and
 * an aborted upload reports nothing (neither answer nor problem). Unmounting aborts too, so a
 * closed dialog or screen never receives a late answer.
 */
export function useImageUpload(onUploaded: (answer: UploadResponse) => void): ImageUpload {
  const api = useApi();
  const [uploading, setUploading] = useState<UploadProgress | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  useEffect(() => () => inFlight.current?.abort(), []);

  const upload = async (file: File) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setProblem(null);
    setUploading({ name: file.name, progress: 0 });
    try {
      const answer = await api.uploadFile(file, {
        signal: controller.signal,
        onProgress: (progress) => {
          if (inFlight.current === controller) setUploading({ name: file.name, progress });
        },
      });
      if (!controller.signal.aborted) onUploaded(answer);
    } catch (error) {
      if (!controller.signal.aborted) setProblem(uploadProblem(file, error));
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setUploading(null);
      }
    }
  };
  const cancel = () => {
    inFlight.current?.abort();
    inFlight.current = null;
    setUploading(null);
  };
  return { upload, cancel, uploading, problem, clearProblem: () => setProblem(null) };
}
